/**
 * docs/operator-guide.md is run, not just read: its ```sh blocks, exactly as written and in order,
 * as one bash script (stopping at the first failing line) against a fresh API process on the
 * embedded database. A guide line that no longer works fails here with the script's output.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type ServiceProcess, startApi } from './helpers/api-process.ts';

const GUIDE = join(import.meta.dirname, '..', 'docs', 'operator-guide.md');
const ADMIN = `operator-guide-${randomUUID()}`;

function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

let api: ServiceProcess;
before(async () => {
  api = await startApi('operator-guide', { DATA_DIR: 'memory://', ADMIN_TOKEN: ADMIN, SEED_DEMO: 'false', WEBHOOK_WORKER: 'false' });
});
after(() => api?.stop());

test('the guide has its steps as shell blocks', () => {
  assert.ok(shellBlocks(readFileSync(GUIDE, 'utf8')).length >= 7);
});

test('every curl line of docs/operator-guide.md works, in order, on a fresh server', () => {
  const script = ['set -euo pipefail', ...shellBlocks(readFileSync(GUIDE, 'utf8'))].join('\n');
  const r = spawnSync('bash', ['-c', script], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', BASE: api.url!, ADMIN },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(r.status, 0, `the guide stopped (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
});
