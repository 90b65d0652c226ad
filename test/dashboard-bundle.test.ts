/**
 * The dashboard's size budget: all JavaScript of the build under 300 kB gzipped (issue 15). Builds
 * the dashboard first when dashboard/dist is missing or stale (scripts/ensure-dashboard.ts).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';

const ROOT = join(import.meta.dirname, '..');
const BUDGET = 300 * 1024;

test('the built dashboard ships under 300 kB of gzipped JavaScript, no source maps', () => {
  const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/ensure-dashboard.ts', '--strict'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  assert.equal(built.status, 0, 'building the dashboard failed');
  const assets = join(ROOT, 'dashboard', 'dist', 'assets');
  const files = readdirSync(assets);
  assert.deepEqual(
    files.filter((f) => f.endsWith('.map')),
    [],
  );
  const js = files.filter((f) => f.endsWith('.js'));
  assert.ok(js.length > 0);
  const total = js.reduce((sum, f) => sum + gzipSync(readFileSync(join(assets, f)), { level: 9 }).length, 0);
  console.log(`# dashboard JavaScript: ${(total / 1024).toFixed(1)} kB gzipped in ${js.length} file(s)`);
  assert.ok(total < BUDGET, `${total} bytes gzipped, over the ${BUDGET} budget`);
});
