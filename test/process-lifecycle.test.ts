/**
 * The entry points as real processes: a bad setting stops the API and the worker with exit 78 and
 * a message naming the variable; SIGTERM stops the API gracefully (exit 0) after start on the
 * embedded database.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { startApi } from './helpers/api-process.ts';

const ROOT = join(import.meta.dirname, '..');

function run(script: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

for (const script of ['src/main.ts', 'src/worker.ts']) {
  test(`${script}: a bad setting exits 78 naming the variable`, async () => {
    const r = await run(script, { PORT: 'http', DATA_DIR: 'memory://' });
    assert.equal(r.code, 78, r.output);
    assert.match(r.output, /Configuration error: PORT: must be a whole number, got "http"/);
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
});
