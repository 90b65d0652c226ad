/**
 * The promises the soak checks afterwards, each from an independent source: SQL on the soak
 * database, the receiver's own log, the client's record of every request, and the processes' logs.
 * Each check returns one row of the final table; `fail` rows make the run exit non-zero, `n/a` rows
 * say which piece of the service is missing for the check to be made.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type pg from 'pg';
import { ERROR_CATALOG } from '../../src/domain/errors.ts';
import { OCCUPYING_STATUSES, overlappingBookingsSql } from '../../test/helpers/overlaps.ts';
import type { GuestData } from './guest-data.ts';
import type { WebhookReceiver } from './receiver.ts';
import type { Recorder } from './recorder.ts';
import type { Ack } from './workload.ts';

export interface InvariantResult {
  name: string;
  outcome: 'pass' | 'fail' | 'n/a';
  detail: string;
}

const OCCUPYING = [...OCCUPYING_STATUSES];
const sample = (xs: string[], n = 5) => xs.slice(0, n).join('; ') + (xs.length > n ? `; … ${xs.length - n} more` : '');

function result(name: string, failures: string[], passDetail: string): InvariantResult {
  return failures.length === 0
    ? { name, outcome: 'pass', detail: passDetail }
    : { name, outcome: 'fail', detail: `${failures.length} broken: ${sample(failures)}` };
}

/** Every 201 (and every later 2xx) the clients saw is in the database, in that state or a later one. */
export async function acknowledgedBookingsPersist(pool: pg.Pool, acks: Map<string, Ack>): Promise<InvariantResult> {
  const ids = [...acks.keys()];
  const rows = await pool.query<{ id: string; status: string; state_version: number; ack_to: string | null }>(
    `SELECT b.id, b.status, b.state_version,
            (SELECT e.to_status FROM booking_events e WHERE e.booking_id = b.id AND e.sequence = x.v) AS ack_to
       FROM unnest($1::text[], $2::int[]) AS x(id, v) JOIN bookings b ON b.id = x.id`,
    [ids, ids.map((id) => acks.get(id)!.stateVersion)],
  );
  const found = new Map(rows.rows.map((r) => [r.id, r]));
  const failures: string[] = [];
  let later = 0;
  for (const a of acks.values()) {
    const row = found.get(a.bookingId);
    if (!row) failures.push(`${a.bookingId} (${a.via}) missing`);
    else if (row.state_version < a.stateVersion)
      failures.push(`${a.bookingId} at v${row.state_version} ${row.status}, acknowledged v${a.stateVersion} ${a.status}`);
    else if (row.ack_to !== a.status) failures.push(`${a.bookingId}: event ${a.stateVersion} is ${row.ack_to}, acknowledged ${a.status}`);
    else if (row.state_version > a.stateVersion) later += 1;
  }
  return result(
    'every acknowledged booking exists in its acknowledged state or a later one',
    failures,
    `${acks.size} bookings checked (${later} moved on later, e.g. by a timed-out action)`,
  );
}

export async function noOverlaps(pool: pg.Pool): Promise<InvariantResult> {
  const r = await pool.query<{ a: string; b: string; staff: string }>(overlappingBookingsSql());
  // a group session holds its staff member's time too (migration 003)
  const s = await pool.query<{ a: string; b: string; staff: string }>(
    `SELECT x.id AS a, g.id AS b, g.staff_id AS staff
       FROM bookings x JOIN group_sessions g
         ON g.staff_id = x.occupied_staff_id AND x.occupied && tstzrange(g.start_at, g.end_at, '[)')
      WHERE x.status = ANY($1) AND x.session_id IS NULL`,
    [OCCUPYING],
  );
  const n = await pool.query<{ n: string }>('SELECT count(*) AS n FROM bookings WHERE status = ANY($1)', [OCCUPYING]);
  return result(
    'no two occupying bookings of one staff member overlap',
    [...r.rows, ...s.rows].map((x) => `${x.a} and ${x.b} (staff ${x.staff})`),
    `${n.rows[0]!.n} occupying bookings, no overlap`,
  );
}

export async function eventSequences(pool: pg.Pool): Promise<InvariantResult> {
  const r = await pool.query<{ id: string; state_version: number; status: string; n: string; lo: number; hi: number; last: string | null }>(
    `SELECT b.id, b.state_version, b.status, count(e.sequence) AS n, min(e.sequence) AS lo, max(e.sequence) AS hi,
            (SELECT to_status FROM booking_events z WHERE z.booking_id = b.id ORDER BY z.sequence DESC LIMIT 1) AS last
       FROM bookings b LEFT JOIN booking_events e ON e.booking_id = b.id
      GROUP BY b.id, b.state_version, b.status`,
  );
  const failures: string[] = [];
  let events = 0;
  for (const x of r.rows) {
    events += Number(x.n);
    if (Number(x.n) !== x.state_version || x.lo !== 1 || x.hi !== x.state_version) {
      failures.push(`${x.id}: ${x.n} events ${x.lo}..${x.hi}, stateVersion ${x.state_version}`);
    } else if (x.last !== x.status) failures.push(`${x.id}: last event to ${x.last}, status ${x.status}`);
  }
  return result("every booking's events are 1..stateVersion without gaps", failures, `${r.rows.length} bookings, ${events} events`);
}

/** Waits (bounded) until the worker has settled every delivery; returns how many are still open. */
export async function waitForDeliveries(pool: pg.Pool, timeoutMs: number): Promise<{ open: number; waitedMs: number }> {
  const start = Date.now();
  for (;;) {
    const r = await pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM webhook_deliveries WHERE status IN ('pending', 'processing', 'retry_scheduled')`,
    );
    const open = Number(r.rows[0]!.n);
    if (open === 0 || Date.now() - start > timeoutMs) return { open, waitedMs: Date.now() - start };
    await new Promise((res) => setTimeout(res, 500));
  }
}

/** The outbox: every event of a business with a webhook has its delivery record (no worker needed). */
export async function eventsQueued(pool: pg.Pool, configMissing: string | undefined): Promise<InvariantResult> {
  const name = 'every event of a business with a webhook is queued for delivery';
  if (configMissing) return { name, outcome: 'n/a', detail: `not available: ${configMissing}` };
  const r = await pool.query<{ events: string; unqueued: string }>(
    `SELECT count(*) AS events,
            count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.delivery_id = e.delivery_id)) AS unqueued
       FROM booking_events e
      WHERE EXISTS (SELECT 1 FROM webhook_configs c WHERE c.business_id = e.business_id)`,
  );
  const { events, unqueued } = r.rows[0]!;
  return result(
    name,
    Number(unqueued) > 0 ? [`${unqueued} of ${events} events have no delivery record`] : [],
    `${events} events, each with its delivery record`,
  );
}

export async function webhooksDelivered(pool: pg.Pool, receiver: WebhookReceiver, missing: string | undefined): Promise<InvariantResult[]> {
  const name = 'every event reached the receiver with a valid signature, or is exhausted/failed with its attempts';
  const sigName = 'every delivery the receiver got was signed and labelled correctly';
  if (missing) {
    const detail = `not available: ${missing}`;
    return [
      { name, outcome: 'n/a', detail },
      { name: sigName, outcome: 'n/a', detail },
    ];
  }
  const rows = await pool.query<{
    delivery_id: string;
    status: string;
    attempt_count: number;
    attempts: number;
    outcomes: string | null;
    payload: string;
  }>(
    `SELECT d.delivery_id, d.status, d.attempt_count, e.payload,
            (SELECT count(*)::int FROM webhook_attempts a WHERE a.delivery_id = d.delivery_id) AS attempts,
            (SELECT string_agg(a.outcome || coalesce(' ' || a.status_code, ''), ', ' ORDER BY a.attempt)
               FROM webhook_attempts a WHERE a.delivery_id = d.delivery_id) AS outcomes
       FROM webhook_deliveries d JOIN booking_events e ON e.delivery_id = d.delivery_id`,
  );
  const received = new Map<string, { ok: boolean; shas: Set<string> }>();
  const sigFailures: string[] = [];
  for (const x of receiver.log) {
    const entry = received.get(x.deliveryId) ?? { ok: false, shas: new Set<string>() };
    entry.shas.add(x.bodySha256);
    if (x.signatureValid && x.answer === 'ok') entry.ok = true;
    received.set(x.deliveryId, entry);
    if (!x.signatureValid) sigFailures.push(`${x.deliveryId} attempt ${x.attempt}: bad signature`);
    if (!x.idMatches) sigFailures.push(`${x.deliveryId}: X-Service-Delivery-Id differs from the body`);
    if (!x.timestampMatches) sigFailures.push(`${x.deliveryId}: X-Service-Timestamp differs from the body`);
    if (!(x.attempt >= 1 && x.attempt <= 3)) sigFailures.push(`${x.deliveryId}: X-Service-Attempt ${x.attempt}`);
  }
  for (const m of receiver.malformed) sigFailures.push(`unreadable delivery: ${m}`);

  const failures: string[] = [];
  const byStatus = new Map<string, number>();
  let delivered = 0;
  let gaveUp = 0;
  for (const d of rows.rows) {
    byStatus.set(d.status, (byStatus.get(d.status) ?? 0) + 1);
    const got = received.get(d.delivery_id);
    const sha = createHash('sha256').update(d.payload).digest('hex');
    if (got && [...got.shas].some((s) => s !== sha)) sigFailures.push(`${d.delivery_id}: a delivered body differs from the stored event`);
    if (got?.ok) {
      delivered += 1;
      continue;
    }
    if ((d.status === 'exhausted' || d.status === 'failed') && d.attempt_count >= 1 && d.attempts === d.attempt_count) {
      gaveUp += 1;
      continue;
    }
    failures.push(
      `${d.delivery_id}: ${d.status}, ${d.attempt_count} attempts [${d.outcomes ?? ''}], ${got ? 'received but never answered 2xx' : 'never received'}`,
    );
  }
  const statuses = [...byStatus].map(([s, n]) => `${s} ${n}`).join(', ');
  return [
    result(
      name,
      failures,
      `${rows.rows.length} deliveries (${statuses}): ${delivered} received, ${gaveUp} gave up with attempts recorded; ${receiver.log.length} requests at the receiver`,
    ),
    result(sigName, sigFailures, `${receiver.log.length} requests: signature, delivery id, timestamp, attempt and body bytes all correct`),
  ];
}

export function no5xxOutsideKillWindow(recorder: Recorder, unexpectedExits: string[]): InvariantResult {
  const failures: string[] = [...unexpectedExits];
  let inWindow = 0;
  for (const r of recorder.records) {
    // 503 idempotency.request_in_progress is the contract's "retry with the same key", not a fault
    const bad = r.status === 0 || (r.status >= 500 && r.code !== 'idempotency.request_in_progress');
    if (!bad) continue;
    if (recorder.inKillWindow(r)) inWindow += 1;
    else
      failures.push(
        `${r.route} -> ${r.status || r.code} ${r.status ? (r.code ?? '') : ''} at +${((r.startMs - recorder.startedAt) / 1000).toFixed(1)} s`,
      );
  }
  return result('no 5xx or dropped request outside the kill window', failures, `${inWindow} failed requests, all inside the kill window`);
}

export function errorsAreCatalogCodes(recorder: Recorder): InvariantResult {
  const failures: string[] = [];
  for (const r of recorder.records) {
    if (r.status < 400) continue;
    const entry = r.code === undefined ? undefined : (ERROR_CATALOG as Record<string, { status: number }>)[r.code];
    if (!entry) failures.push(`${r.route} -> ${r.status} ${r.code}`);
    else if (entry.status !== r.status) failures.push(`${r.route} -> ${r.status} ${r.code} (catalog: ${entry.status})`);
  }
  return result('every error answer is a catalog code with the catalog status', failures, 'all error answers');
}

export function noGuestDataLeaks(recorder: Recorder, guests: GuestData, receiver: WebhookReceiver, logFiles: string[]): InvariantResult {
  const failures = [...recorder.anomalies.filter((a) => a.startsWith('guest data')), ...receiver.leaks];
  let lines = 0;
  for (const f of logFiles) {
    let text: string;
    try {
      text = readFileSync(f, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      if (line === '') continue;
      lines += 1;
      for (const leak of guests.leaksIn(line)) failures.push(`${f.split('/').pop()}: ${leak}: ${line.slice(0, 160)}`);
    }
  }
  return result(
    'no guest phone or e-mail in any public response, webhook or log line',
    failures,
    `${recorder.records.length} responses, ${receiver.log.length} webhooks and ${lines} log lines scanned for ${guests.count} guests`,
  );
}

export function clientChecks(recorder: Recorder, replays: number): InvariantResult {
  const failures = recorder.anomalies.filter((a) => !a.startsWith('guest data'));
  return result(
    'replays with the same Idempotency-Key return the same booking; event reads are contiguous',
    failures,
    `${replays} deliberate replays, all identical`,
  );
}
