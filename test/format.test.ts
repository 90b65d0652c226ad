/**
 * The tree is formatted and linted by Biome (biome.json): `npm run format` writes the formatting,
 * `npm run lint` checks both. A file committed unformatted, or a lint error, fails here with
 * Biome's own diagnostics.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..');

test('biome ci: every file formatted, no lint error', () => {
  const bin = join(ROOT, 'node_modules', '.bin', 'biome');
  const r = spawnSync(bin, ['ci', '--colors=off', '--max-diagnostics=20', '.'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}\nRun \`npm run format\` (and fix what \`npm run lint\` reports).`);
});
