/**
 * The package as an integrator's project gets it: built to plain ESM JavaScript (`npm run build`)
 * and imported by its name with no TypeScript loader. And its type check in the test command, as
 * the dashboard's: tsx runs the tests without checking types, so a route change that breaks the
 * client's code or its tests would otherwise show only in `npm run typecheck`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

test('the package and its tests type-check against the generated types', () => {
  const r = spawnSync(process.execPath, [TSC, '--noEmit', '-p', 'clients/typescript'], { cwd: ROOT, encoding: 'utf8', timeout: 180_000 });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('the built package imports by name in plain Node.js and verifies a delivery', () => {
  const build = spawnSync(process.execPath, [TSC, '-p', 'clients/typescript/tsconfig.build.json'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 180_000,
  });
  assert.equal(build.status, 0, build.stdout + build.stderr);

  const consumer = `
    import { createHmac } from 'node:crypto';
    import { BookingApiError, createBookingClient, isErrorCode, verifyWebhook } from '@booking-api/client';
    const secret = 'cd'.repeat(32);
    const body = JSON.stringify({ event: 'booking.confirmed', deliveryId: 'f'.repeat(32), timestamp: new Date().toISOString() });
    const headers = { 'x-service-signature': 'sha256=' + createHmac('sha256', secret).update(body).digest('hex'), 'x-service-delivery-id': 'f'.repeat(32) };
    const verified = await verifyWebhook({ secret, body, headers });
    const client = createBookingClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'bka_x' });
    console.log(JSON.stringify({
      deliveryId: verified.deliveryId,
      methods: Object.keys(client).sort(),
      error: typeof BookingApiError,
      known: isErrorCode('booking.not_found'),
    }));`;
  // no --import tsx and no inherited NODE_OPTIONS: what a consumer's node runs
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', consumer], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  });
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), {
    deliveryId: 'f'.repeat(32),
    methods: [
      'cancelBooking',
      'createBooking',
      'createHold',
      'explainAvailability',
      'getBooking',
      'listServices',
      'listStaff',
      'raw',
      'releaseHold',
      'searchAvailability',
    ],
    error: 'function',
    known: true,
  });
});
