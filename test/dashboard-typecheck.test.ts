/**
 * The dashboard's type check, in the test command: its API client is typed from the committed
 * api-types.ts (kept equal to the document by dashboard-api-types.test.ts), so a route change that
 * breaks a page fails here, not in a salon's browser. Vite's build does not type-check.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..');

test('the dashboard type-checks against the API types', () => {
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '--noEmit', '-p', join(ROOT, 'dashboard')], { encoding: 'utf8', timeout: 180_000 });
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
});
