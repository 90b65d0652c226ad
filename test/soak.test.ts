/**
 * The short soak (scripts/soak.ts, --seconds 15) as part of the normal test command: real API and
 * worker processes on a throw-away PostgreSQL database, a crash halfway, invariants afterwards.
 *
 * The soak is PostgreSQL-backed by definition (two processes share one database). It runs against
 * DATABASE_URL's server when set (CI), else against the local server at 127.0.0.1:5432 when one
 * answers — so a developer with PostgreSQL running gets the same check without extra setup. With no
 * server at all the test says so in its name and checks only that the soak refuses to start, loudly.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import pg from 'pg';
import { DEFAULT_BASE_URL } from '../scripts/soak/database.ts';

const ROOT = join(import.meta.dirname, '..');
const SECONDS = Number(process.env.SOAK_TEST_SECONDS ?? 15);

function runSoak(
  args: string[],
  env: Record<string, string | undefined>,
  timeoutMs: number,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/soak.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    // SIGINT lets the soak stop its processes and drop its database
    const timer = setTimeout(() => child.kill('SIGINT'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

async function reachable(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

const base = process.env.DATABASE_URL?.trim() || DEFAULT_BASE_URL;
const haveServer = await reachable(base);

test('the soak refuses to start without a reachable PostgreSQL server', async () => {
  const r = await runSoak(['--seconds', '5'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/postgres' }, 60_000);
  assert.notEqual(r.code, 0, r.out);
  assert.match(r.out, /cannot reach PostgreSQL/, r.out);
});

test('the soak refuses a PostgreSQL server that is not on this machine', async () => {
  const r = await runSoak(['--seconds', '5'], { DATABASE_URL: 'postgres://postgres@db.example.com:5432/postgres' }, 60_000);
  assert.notEqual(r.code, 0, r.out);
  assert.match(r.out, /only against a local PostgreSQL/, r.out);
});

if (haveServer) {
  test(`short soak (${SECONDS} s) against ${process.env.DATABASE_URL ? 'DATABASE_URL' : 'the local PostgreSQL at 127.0.0.1:5432'}: every invariant holds`, {
    timeout: SECONDS * 1000 + 400_000,
  }, async (t) => {
    const r = await runSoak(['--seconds', String(SECONDS)], { DATABASE_URL: base }, SECONDS * 1000 + 380_000);
    const tail = r.out.slice(-6_000);
    assert.match(r.out, /## Requests by route/, tail);
    assert.match(r.out, /## Invariants/, tail);
    assert.match(r.out, /\| no two occupying bookings of one staff member overlap +\| pass/, tail);
    assert.match(r.out, /SOAK PASSED/, tail);
    assert.equal(r.code, 0, tail);
    for (const line of r.out.split('\n').filter((l) => l.startsWith('NOT CHECKED'))) t.diagnostic(line);
  });
} else {
  test(`short soak (${SECONDS} s)`, { skip: `no PostgreSQL at ${new URL(base).host} (set DATABASE_URL)` }, () => {});
  test(`short soak NOT RUN: no PostgreSQL at ${new URL(base).host} (set DATABASE_URL); the soak refuses it`, async () => {
    const r = await runSoak(['--seconds', String(SECONDS)], { DATABASE_URL: base }, 60_000);
    assert.notEqual(r.code, 0, r.out);
    assert.match(r.out, /cannot reach PostgreSQL/, r.out);
  });
}
