/**
 * The entry points as real processes: a bad setting stops the API and the worker with exit 78 and
 * one line naming the variable; SIGTERM stops the API gracefully (exit 0) after start on the
 * embedded database, also when it is sent to `npm start` / `npm run worker` (what a supervisor that
 * started npm signals), and leaves no process of the tree behind.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runToExit, startApi, startWorker, waitForOutput, type ServiceProcess } from './helpers/api-process.ts';
import { descendants, portOpen, stillRunning, waitFor, type ProcInfo } from './helpers/processes.ts';

for (const script of ['src/main.ts', 'src/worker.ts']) {
  test(`${script}: a bad setting exits 78 with one line naming the variable`, async () => {
    const r = await runToExit([process.execPath, '--import', 'tsx', script], { PORT: 'http', DATA_DIR: 'memory://' }, 30_000);
    assert.equal(r.code, 78, r.stdout + r.stderr);
    assert.equal(r.stderr.trim(), 'Configuration error: PORT: must be a whole number, got "http"');
  });
}

test('src/main.ts: SIGTERM stops the API gracefully with exit 0', async () => {
  const api = await startApi('lifecycle', { DATA_DIR: 'memory://', SEED_DEMO: 'false', LOG_LEVEL: 'info' });
  try {
    const health = await fetch(`${api.url}/healthz`);
    assert.equal(health.status, 200);
  } finally {
    await api.stop(20_000);
  }
  assert.match(api.output(), /API stopped/, api.output());
  assert.deepEqual(await api.exit, { code: 0, signal: null });
});

/**
 * SIGTERM to the npm process itself; then the whole tree seen under it while it ran must be gone
 * (by pid and start time, so a reused pid does not count), and whatever is left is killed here.
 */
async function stopThroughNpm(p: ServiceProcess, tree: ProcInfo[]): Promise<ProcInfo[]> {
  try {
    await p.stop(20_000);
    await waitFor('the tree under npm to end', async () => tree.every((q) => !stillRunning(q)), 5_000).catch(() => {});
    return tree.filter(stillRunning);
  } finally {
    for (const q of tree) if (stillRunning(q)) process.kill(q.pid, 'SIGKILL');
  }
}

test('npm start: SIGTERM to the npm process stops the server gracefully, closes the port, leaves no process', async () => {
  const api = await startApi(
    'npm-start',
    { DATA_DIR: 'memory://', SEED_DEMO: 'false', LOG_LEVEL: 'info' },
    { command: ['npm', 'start'], timeoutMs: 90_000 },
  );
  const tree = descendants(api.pid);
  assert.ok(
    tree.some((q) => q.cmdline.includes('src/main.ts')),
    `the server runs under npm: ${tree.map((q) => q.cmdline).join(' | ')}`,
  );
  const left = await stopThroughNpm(api, tree);
  assert.deepEqual(await api.exit, { code: 0, signal: null }, 'npm exits with the server’s 0');
  assert.deepEqual(
    left.map((q) => `${q.pid} ${q.cmdline}`),
    [],
    'no process of the tree is left',
  );
  assert.equal(await portOpen(Number(new URL(api.url!).port)), false, 'the port is closed');
  assert.match(api.output(), /API stopping: finishing the work in flight/, api.output());
  assert.match(api.output(), /API stopped/, api.output());
});

test('npm run worker: SIGTERM to the npm process stops the worker gracefully, leaves no process', async () => {
  const worker = startWorker('npm-worker', { DATA_DIR: 'memory://', LOG_LEVEL: 'info' }, ['npm', 'run', 'worker']);
  await waitForOutput(worker, /webhook worker started/, 90_000);
  const tree = descendants(worker.pid);
  assert.ok(
    tree.some((q) => q.cmdline.includes('src/worker.ts')),
    `the worker runs under npm: ${tree.map((q) => q.cmdline).join(' | ')}`,
  );
  const left = await stopThroughNpm(worker, tree);
  assert.deepEqual(
    left.map((q) => `${q.pid} ${q.cmdline}`),
    [],
    'no process of the tree is left',
  );
  assert.match(worker.output(), /webhook worker stopped/, worker.output());
});
