import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { canonicalJson } from '../../domain/canonical-json.ts';
import { AppError } from '../../domain/errors.ts';
import type { Queryable } from '../../store/db.ts';
import { claimKey, completeKey, releaseKey } from '../../store/idempotency.ts';
import { transactionWithRetry } from '../../store/savepoint.ts';
import type { App } from '../context.ts';
import { errorEnvelope, ok, type MetaExtras } from '../envelope.ts';
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

/**
 * Runs a public write exactly once per Idempotency-Key: the key is claimed first, the operation
 * runs in one transaction that also stores its response, and a duplicate gets that response back
 * with meta.idempotent. Non-retryable errors are stored too (the same request always gets the same
 * answer); retryable ones release the key so the client can try again with it.
 */
export async function runIdempotent<T>(
  app: App,
  request: FastifyRequest,
  reply: FastifyReply,
  run: (tx: Queryable) => Promise<WriteResult<T>>,
  storedForm?: StoredForm<T>,
): Promise<unknown> {
  const access = request.routeOptions.config.access;
  if (access?.surface !== 'public' || !access.idempotentOperation) throw new Error('route is not an idempotent write');
  const auth = authOf(request);
  const key = String(request.headers['idempotency-key']).trim().toLowerCase();
  const db = app.ctx.db;
  const claim = await claimKey(db, {
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
    return reply.status(claim.status).send(stored);
  }

  try {
    // A deadlock victim among concurrent clashing writes is run again (it then gets its 409).
    const result = await transactionWithRetry(db, async (tx) => {
      const r = await run(tx);
      const kept = storedForm ? storedForm.seal(r.data) : r.data;
      await completeKey(tx, auth.businessId, key, r.status, JSON.stringify(ok(request, kept, r.meta)));
      return r;
    });
    const data = result.liveOnly ? { ...result.data, ...result.liveOnly } : result.data;
    return reply.status(result.status).send(ok(request, data, result.meta));
  } catch (err) {
    const appErr = toAppError(err);
    try {
      if (appErr.retryable) await releaseKey(db, auth.businessId, key);
      else await completeKey(db, auth.businessId, key, appErr.status, JSON.stringify(errorEnvelope(request, appErr)));
    } catch (storeErr) {
      request.log.error({ err: storeErr }, 'could not settle idempotency key; its lease will lapse');
    }
    throw err;
  }
}
