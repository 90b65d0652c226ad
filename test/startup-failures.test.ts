/**
 * A start that fails for a reason the operator can fix ends with one line on stderr saying what is
 * wrong and what to do, no stack trace, and an exit code of its own (docs/operations.md, "Exit
 * codes"), for the API and the worker as real processes. The locked DATA_DIR (75) is in
 * data-dir-lock.test.ts, the bad setting (78) in process-lifecycle.test.ts.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { after, before, test } from 'node:test';
import { runToExit } from './helpers/api-process.ts';
import { freePort } from './helpers/processes.ts';

const MAIN = [process.execPath, '--import', 'tsx', 'src/main.ts'];
const WORKER = [process.execPath, '--import', 'tsx', 'src/worker.ts'];
const SERVER_URL = process.env.DATABASE_URL;

function assertFailure(r: Awaited<ReturnType<typeof runToExit>>, code: number, line: RegExp): void {
  const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
  assert.equal(r.code, code, `exit code\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  assert.equal(lines.length, 1, `stderr is one line:\n${r.stderr}`);
  assert.match(lines[0]!, line);
  assert.doesNotMatch(r.stderr + r.stdout, /^\s+at /m, 'no stack trace');
}

let taken: Server;
let takenPort: number;
before(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  takenPort = (taken.address() as { port: number }).port;
});
after(() => new Promise<void>((resolve) => taken.close(() => resolve())));

test('API: port in use exits 73', async () => {
  const r = await runToExit(MAIN, { DATA_DIR: 'memory://', SEED_DEMO: 'false', HOST: '127.0.0.1', PORT: String(takenPort) });
  assertFailure(r, 73, new RegExp(`^Cannot start: port ${takenPort} on 127\\.0\\.0\\.1 is already in use\\. .*PORT`));
});

test('worker: its metrics port in use exits 73', async () => {
  const r = await runToExit(WORKER, {
    DATA_DIR: 'memory://',
    HOST: '127.0.0.1',
    WORKER_METRICS_PORT: String(takenPort),
    ADMIN_TOKEN: `startup-failures-${randomUUID()}`,
  });
  assertFailure(r, 73, new RegExp(`^Cannot start: port ${takenPort} .* already in use\\. .*WORKER_METRICS_PORT`));
});

for (const [name, command] of [
  ['API', MAIN],
  ['worker', WORKER],
] as const) {
  test(`${name}: PostgreSQL unreachable exits 69`, async () => {
    const port = await freePort();
    const r = await runToExit(command, {
      DATABASE_URL: `postgres://postgres:secret-pw@127.0.0.1:${port}/booking`,
      PORT: String(await freePort()),
    });
    assertFailure(
      r,
      69,
      new RegExp(`^Cannot start: PostgreSQL at 127\\.0\\.0\\.1:${port}/booking cannot be reached \\(.*ECONNREFUSED.*\\)\\. Check`),
    );
    assert.doesNotMatch(r.stderr, /secret-pw/, 'never the password');
  });

  test(`${name}: a PostgreSQL address that accepts but never answers exits 69 within DB_POOL_TIMEOUT_MS`, async () => {
    // A listener that takes the connection and says nothing, as a half-dead server or a wrong port would.
    const sockets: import('node:net').Socket[] = [];
    const silent = createServer((s) => void sockets.push(s));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const r = await runToExit(command, {
        DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/booking`,
        DB_POOL_TIMEOUT_MS: '300',
        PORT: String(await freePort()),
      });
      assertFailure(r, 69, new RegExp(`^Cannot start: PostgreSQL at 127\\.0\\.0\\.1:${port}/booking cannot be reached`));
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  test(`${name}: PostgreSQL database missing exits 66`, { skip: !SERVER_URL && 'needs DATABASE_URL (a PostgreSQL server)' }, async () => {
    const url = new URL(SERVER_URL!);
    const dbName = `booking_missing_${randomUUID().slice(0, 8)}`;
    url.pathname = `/${dbName}`;
    const r = await runToExit(command, { DATABASE_URL: url.toString(), PORT: String(await freePort()) });
    assertFailure(
      r,
      66,
      new RegExp(`^Cannot start: PostgreSQL at .*/${dbName} says: database "${dbName}" does not exist\\. Create the database`),
    );
  });
}

test('API: PostgreSQL refusing the login exits 77', { skip: !SERVER_URL && 'needs DATABASE_URL (a PostgreSQL server)' }, async () => {
  const url = new URL(SERVER_URL!);
  url.username = `no_such_role_${randomUUID().slice(0, 8)}`;
  const r = await runToExit(MAIN, { DATABASE_URL: url.toString(), PORT: String(await freePort()) });
  assertFailure(r, 77, /^Cannot start: PostgreSQL at .* refused the login: .*\. Fix the user or password in DATABASE_URL\.$/);
});
