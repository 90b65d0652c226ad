import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { canonicalJson } from '../../domain/canonical-json.ts';
import { AppError } from '../../domain/errors.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { claimKey, completeKey, releaseKey, type KeyCompletion } from '../../store/idempotency.ts';
import { transactionWithRetry } from '../../store/tx-retry.ts';
import type { App } from '../context.ts';
import { errorEnvelope, ok, type MetaExtras } from '../envelope.ts';
import { DatabaseBusyError } from '../../store/db-errors.ts';
import { toAppError } from './errors.ts';
import { authOf } from './auth.ts';

const LEASE_MS = 30_000;

export interface WriteResult<T> {
  status: 200 | 201;
  data: T;
  meta?: MetaExtras;
  /** added to the live response only, never stored for replays (e.g. a bearer payment link) */
  liveOnly?: Record<string, unknown>;
}

/**
 * How a response is kept for replays when its data must not rest in clear (a webhook signing
 * secret): `seal` turns the data into its stored form, `unseal` turns the stored form back into
 * what the client gets again on a replay.
 */
export interface StoredForm<T> {
  seal: (data: T) => unknown;
  unseal: (stored: unknown) => unknown;
}

function fingerprint(businessId: string, operation: string, params: unknown, body: unknown): string {
  return createHash('sha256')
    .update(canonicalJson({ businessId, operation, params: params ?? {}, body: body ?? {} }))
    .digest('hex');
}

interface Claimed {
  businessId: string;
  key: string;
  /** which claim of the key is this request's (claimKey) */
  lease: string;
}

/** Claims the request's key; a replay, a mismatch or a claim in progress ends the request here. */
async function claimRequest(app: App, request: FastifyRequest, reply: FastifyReply, storedForm?: StoredForm<unknown>) {
  const access = request.routeOptions.config.access;
  if (access?.surface !== 'public' || !access.idempotentOperation) throw new Error('route is not an idempotent write');
  const auth = authOf(request);
  const key = String(request.headers['idempotency-key']).trim().toLowerCase();
  const claim = await claimKey(app.ctx.db, {
    businessId: auth.businessId,
    key,
    operation: access.idempotentOperation,
    fingerprint: fingerprint(auth.businessId, access.idempotentOperation, request.params, request.body),
    leaseMs: LEASE_MS,
  });
  if (claim.kind === 'mismatch') throw new AppError('idempotency.payload_mismatch');
  if (claim.kind === 'in_progress') throw new AppError('idempotency.request_in_progress');
  if (claim.kind === 'replay') {
    const stored = JSON.parse(claim.body) as { ok: boolean; data?: unknown; meta: Record<string, unknown> };
    if (storedForm && stored.ok) stored.data = storedForm.unseal(stored.data);
    stored.meta = { ...stored.meta, requestId: request.id, idempotent: true };
    return { replay: reply.status(claim.status).send(stored) };
  }
  return { claimed: { businessId: auth.businessId, key, lease: claim.lease } satisfies Claimed };
}

/**
 * Non-retryable errors are stored (the same request always gets the same answer); retryable ones
 * release the key so the client can try again with it. Returns the error to answer with: when this
 * request's claim lapsed and a duplicate that took the key over has answered it already, this
 * request's own failure (a slot that duplicate's booking now holds, say) is not the key's answer;
 * it gets the retryable 503 of a lost claim, and a retry gets the stored answer.
 */
async function settleFailure(app: App, request: FastifyRequest, c: Claimed, err: unknown): Promise<unknown> {
  const appErr = toAppError(err);
  if (err instanceof DatabaseBusyError) {
    // The pool has no connection for the release either: answer busy now, release when one frees.
    void releaseWhenPoolFrees(app, request, c);
    return err;
  }
  try {
    if (appErr.retryable) await releaseKey(app.ctx.db, c.businessId, c.key, c.lease);
    else if (!(await completeKey(app.ctx.db, c.businessId, c.key, appErr.status, JSON.stringify(errorEnvelope(request, appErr))))) {
      return new AppError('idempotency.request_in_progress');
    }
  } catch (storeErr) {
    request.log.error({ err: storeErr }, 'could not settle idempotency key; its lease will lapse');
  }
  return err;
}

/**
 * Releases a busy request's key as soon as the pool lets it, so that the client's retry (it was told
 * `Retry-After: 1`) runs instead of meeting its own claim; tried every RELEASE_RETRY_MS until the
 * lease lapses, after which the key is free anyway.
 */
async function releaseWhenPoolFrees(app: App, request: FastifyRequest, c: Claimed): Promise<void> {
  // The lease was taken less than LEASE_MS ago, by the database's clock: past this, it has lapsed.
  const lapses = Date.now() + LEASE_MS;
  for (;;) {
    try {
      await releaseKey(app.ctx.db, c.businessId, c.key, c.lease);
      return;
    } catch (err) {
      if (!(err instanceof DatabaseBusyError) || Date.now() + RELEASE_RETRY_MS >= lapses) {
        request.log.warn({ err }, 'could not release a busy request idempotency key; its lease will lapse');
        return;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, RELEASE_RETRY_MS));
  }
}

const RELEASE_RETRY_MS = 250;

function send<T>(reply: FastifyReply, request: FastifyRequest, result: WriteResult<T>): FastifyReply {
  const data = result.liveOnly ? { ...result.data, ...result.liveOnly } : result.data;
  return reply.status(result.status).send(ok(request, data, result.meta));
}

/**
 * Runs a public write exactly once per Idempotency-Key: the key is claimed first, the operation
 * runs in one transaction that also stores its response, and a duplicate gets that response back
 * with meta.idempotent.
 */
export async function runIdempotent<T>(
  app: App,
  request: FastifyRequest,
  reply: FastifyReply,
  run: (tx: Queryable) => Promise<WriteResult<T>>,
  storedForm?: StoredForm<T>,
): Promise<unknown> {
  const claim = await claimRequest(app, request, reply, storedForm as StoredForm<unknown> | undefined);
  if (claim.replay) return claim.replay;
  const c = claim.claimed;
  try {
    // A deadlock victim among concurrent clashing writes is run again (it then gets its 409).
    const result = await transactionWithRetry(app.ctx.db, async (tx) => {
      const r = await run(tx);
      const kept = storedForm ? storedForm.seal(r.data) : r.data;
      // False: this request's claim lapsed and a duplicate with the same key answered it first;
      // throwing undoes this one's writes, and a retry gets that answer.
      if (!(await completeKey(tx, c.businessId, c.key, r.status, JSON.stringify(ok(request, kept, r.meta))))) {
        throw new AppError('idempotency.request_in_progress');
      }
      return r;
    });
    return send(reply, request, result);
  } catch (err) {
    throw await settleFailure(app, request, c, err);
  }
}

/**
 * runIdempotent for an operation whose writes are one statement (POST /bookings): no transaction
 * is opened around it, its reads run as they come, and its single write statement stores the
 * response too — `settle` turns a result into that completion (settledKeyCtes, which also keeps a
 * lapsed claim's request from writing once a duplicate has answered). Two round trips fewer than
 * BEGIN … completeKey … COMMIT, on the hottest write of the API. The check after `run` catches an
 * operation that forgot to carry its completion (a bug, found by any test of that write).
 */
export async function runIdempotentStatement<T>(
  app: App,
  request: FastifyRequest,
  reply: FastifyReply,
  run: (db: Db, settle: (result: WriteResult<T>) => KeyCompletion) => Promise<WriteResult<T>>,
): Promise<unknown> {
  const claim = await claimRequest(app, request, reply);
  if (claim.replay) return claim.replay;
  const c = claim.claimed;
  let completion: KeyCompletion | undefined;
  const settle = (r: WriteResult<T>): KeyCompletion => {
    completion = { ...c, status: r.status, body: JSON.stringify(ok(request, r.data, r.meta)), written: false };
    return completion;
  };
  try {
    const result = await run(app.ctx.db, settle);
    if (!completion?.written) throw new Error('the write did not store its idempotent response');
    return send(reply, request, result);
  } catch (err) {
    throw await settleFailure(app, request, c, err);
  }
}
