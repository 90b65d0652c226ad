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

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

/** A chunk's file and every file it imports statically (what the browser loads before it runs). */
function closure(manifest: Record<string, ManifestChunk>, key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  assert.ok(chunk, `${key} is not in the manifest`);
  if (into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const dep of chunk.imports ?? []) closure(manifest, dep, into);
  return into;
}

test('the first page (the entry with sign-in and the shell, then the calendar) loads under 160 kB of gzipped JavaScript', () => {
  const dist = join(ROOT, 'dashboard', 'dist');
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  assert.ok(entry, 'the build has no entry chunk');
  const calendar = Object.keys(manifest).find((k) => k.endsWith('features/calendar/CalendarPage.tsx'));
  assert.ok(calendar, 'the calendar page is not a chunk of its own (the routes are not code-split)');
  const files = closure(manifest, calendar, closure(manifest, entry));
  const size = (f: string) => gzipSync(readFileSync(join(dist, f)), { level: 9 }).length;
  const entryOnly = [...closure(manifest, entry)].filter((f) => f.endsWith('.js')).reduce((s, f) => s + size(f), 0);
  const first = [...files].filter((f) => f.endsWith('.js')).reduce((s, f) => s + size(f), 0);
  console.log(
    `# dashboard first page: ${(entryOnly / 1024).toFixed(1)} kB sign-in, ${(first / 1024).toFixed(1)} kB with the calendar (gzipped)`,
  );
  assert.ok(first < 160 * 1024, `${first} bytes gzipped for the first page, over 160 kB`);
  // A page of its own chunk is not in the entry: another page's code does not weigh on the first.
  const services = Object.keys(manifest).find((k) => k.endsWith('features/services/ServicesPage.tsx'));
  assert.ok(services && !files.has(manifest[services]!.file));
});
