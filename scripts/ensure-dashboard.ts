/**
 * `npm start`'s prestart: builds the dashboard (dashboard/dist) when it is missing or older than its
 * sources, so a fresh clone's `npm install && npm start` serves it without a separate build step,
 * and a pulled change is not served stale. A no-op (a few stat calls) when the build is current.
 * Not a postinstall: install scripts may be skipped (`--ignore-scripts`, npm's allowScripts policy),
 * and a build on install would run again on every `npm install` of a dependency.
 * One build at a time (a lock folder, dashboard/.build-lock); `--strict` exits 1 when the build fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const app = join(root, 'dashboard');
const built = join(app, 'dist', 'index.html');

function newest(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(s.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

function builtAt(): number | undefined {
  try {
    return statSync(built).mtimeMs;
  } catch {
    return undefined;
  }
}

const sources = () => Math.max(...['src', 'index.html', 'vite.config.ts', 'package.json'].map((p) => newest(join(app, p))));
const stale = () => {
  const at = builtAt();
  return at === undefined || at < sources();
};

// One build at a time: test files running in parallel (and two starts) may all find it stale.
const lock = join(app, '.build-lock');
function acquire(): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch {
    // A lock older than two minutes belongs to a build that died.
    try {
      if (Date.now() - statSync(lock).mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true });
    } catch {}
    return false;
  }
}

if (stale()) {
  while (!acquire()) await new Promise((r) => setTimeout(r, 200));
  try {
    if (stale()) {
      console.log(builtAt() === undefined ? 'Building the dashboard (first start)…' : 'Dashboard sources changed: rebuilding…');
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
      const r = spawnSync(npm, ['run', 'build', '--silent', '-w', 'dashboard'], { cwd: root, stdio: 'inherit' });
      if (r.status !== 0) {
        // `--strict` (the tests): a failed build fails. `npm start`: the API still starts.
        if (process.argv.includes('--strict')) process.exitCode = 1;
        else console.error('The dashboard could not be built; the API starts without it (/dashboard/ answers 503).');
      }
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
