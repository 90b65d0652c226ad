/**
 * The quick start of docs/integrator-guide.md is run, not just read: the `export` line a fresh
 * server prints, then the quick start's ```sh blocks exactly as written and in order, as one bash
 * script in an empty folder, against the real server with its in-process webhook worker. Each step
 * leaves its answer in a file there; the assertions read them.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type ServiceProcess, startApi, waitForOutput } from './helpers/api-process.ts';
import { freePort, sleep } from './helpers/processes.ts';

const GUIDE = readFileSync(join(import.meta.dirname, '..', 'docs', 'integrator-guide.md'), 'utf8');
const EXPORT_LINE = /^ {2}(export BASE=.*)$/m;

function quickStart(markdown: string): string {
  const start = markdown.indexOf('\n## Quick start\n');
  assert.ok(start >= 0, 'the guide has a Quick start section');
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** `export A=1 B=2` → [A, B] */
function exportedNames(line: string): string[] {
  return [...line.matchAll(/ (\w+)=/g)].map((m) => m[1]!);
}

let api: ServiceProcess;
let dir: string;
let run: { status: number | null; stdout: string; stderr: string };
let printed: Record<string, string>;

before(async () => {
  api = await startApi('quickstart', { DATA_DIR: 'memory://', SEED_DEMO: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  await waitForOutput(api, EXPORT_LINE);
  const line = EXPORT_LINE.exec(api.stdout())![1]!;
  printed = Object.fromEntries([...line.matchAll(/ (\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
  dir = mkdtempSync(join(tmpdir(), 'quickstart-'));
  // A step that fails leaves the receiver running in the background; the trap ends it with the script.
  const script = ['set -euo pipefail', "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT", line, ...shellBlocks(quickStart(GUIDE))].join(
    '\n',
  );
  const r = spawnSync('bash', ['-c', script], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', HOOK_PORT: String(await freePort()) },
    encoding: 'utf8',
    timeout: 120_000,
  });
  run = { status: r.status, stdout: r.stdout, stderr: r.stderr };
});
after(async () => {
  await api?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const answer = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8'));
const why = () => `script output:\n${run.stdout}\n${run.stderr}`;

test('the start output gives the values the guide says it does, and the guide shows the same line', () => {
  assert.deepEqual(Object.keys(printed), ['BASE', 'KEY', 'SALON', 'LOCATION', 'SERVICE', 'STAFF']);
  assert.equal(printed.BASE, api.url);
  assert.match(printed.KEY!, /^bka_/);
  const shown = EXPORT_LINE.exec(quickStart(GUIDE));
  assert.ok(shown, 'the guide shows the printed export line');
  assert.deepEqual(exportedNames(shown[1]!), Object.keys(printed));
  assert.ok(shellBlocks(quickStart(GUIDE)).length >= 8, 'the quick start has its steps as shell blocks');
});

test('the quick start runs to its end', () => {
  assert.equal(run.status, 0, `the quick start stopped (exit ${run.status}):\n${why()}`);
});

test('1-2: services list the printed service; availability offers its slots with the printed staff member', () => {
  const services = answer('services.json').data.services;
  assert.equal(services.find((s: { id: string }) => s.id === printed.SERVICE)?.name, 'Haircut');
  const slots = answer('slots.json').data.slots;
  assert.ok(slots.length > 0, why());
  assert.ok(slots.every((s: { serviceId: string; staffId: string }) => s.serviceId === printed.SERVICE && s.staffId === printed.STAFF));
});

test('3: the booking is made and confirmed automatically; the same key replays it', () => {
  const booking = answer('booking.json').data.booking;
  const slot = answer('slots.json').data.slots[0];
  assert.equal(booking.status, 'confirmed', why());
  assert.equal(booking.acceptanceMode, 'automatic');
  assert.equal(booking.stateVersion, 2);
  assert.deepEqual(booking.confirmedSlot, {
    date: slot.date,
    startTime: slot.startTime,
    endTime: slot.endTime,
    timezone: 'Europe/Budapest',
  });
  const replay = answer('replay.json');
  assert.equal(replay.meta.idempotent, true);
  assert.deepEqual(replay.data.booking, booking);
});

test('4-5: the read shows it; the cancel frees it', () => {
  const booking = answer('booking.json').data.booking;
  assert.deepEqual(answer('read.json').data.booking, booking);
  const cancelled = answer('cancel.json').data.booking;
  assert.equal(cancelled.bookingId, booking.bookingId);
  assert.equal(cancelled.status, 'cancelled');
  assert.equal(cancelled.confirmedSlot, null);
  assert.equal(cancelled.stateVersion, 3);
});

test('6: the receiver got both events of the second booking with a valid signature; the log lists both', () => {
  assert.match(answer('webhook.json').data.webhook.signingSecret, /^[0-9a-f]{64}$/);
  const second = answer('booking2.json').data.booking;
  assert.notEqual(second.bookingId, answer('booking.json').data.booking.bookingId, 'the freed slot booked again');
  const log = readFileSync(join(dir, 'deliveries.log'), 'utf8');
  assert.match(log, new RegExp(`^booking.requested ${second.bookingId} sequence 1 signature valid$`, 'm'), why());
  assert.match(log, new RegExp(`^booking.confirmed ${second.bookingId} sequence 2 signature valid$`, 'm'), why());
  assert.doesNotMatch(log, /INVALID/);
  // The guide reads the log right after the receiver printed; the worker may not have recorded the answer yet.
  const records = answer('deliveries.json').data.deliveries;
  assert.deepEqual(records.map((d: { event: string }) => d.event).sort(), ['booking.confirmed', 'booking.requested']);
  assert.ok(records.every((d: { status: string }) => d.status === 'succeeded' || d.status === 'processing'));
});

test('6: both deliveries end succeeded with the 204 of the receiver', async () => {
  const url = `${api.url}/v1/webhooks/deliveries?salonSlug=${printed.SALON}`;
  let records: Array<{ status: string; statusCode: number | null }> = [];
  for (let i = 0; i < 50; i++) {
    records = (await (await fetch(url, { headers: { authorization: `Bearer ${printed.KEY}` } })).json()).data.deliveries;
    if (records.every((d) => d.status === 'succeeded')) break;
    await sleep(200);
  }
  assert.deepEqual(
    records.map((d) => [d.status, d.statusCode]),
    [
      ['succeeded', 204],
      ['succeeded', 204],
    ],
  );
});

test('7: the events of the first booking, never delivered, are there to reconcile with', () => {
  const events = answer('events.json').data.events;
  assert.deepEqual(
    events.map((e: { event: string; transition: { sequence: number } }) => [e.event, e.transition.sequence]),
    [
      ['booking.requested', 1],
      ['booking.confirmed', 2],
      ['booking.cancelled', 3],
    ],
  );
});
