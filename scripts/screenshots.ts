/**
 * `npm run screenshots`: refreshes docs/screenshots/*.png (the calendar, requests and booking detail
 * docs/dashboard.md and the README show). The dashboard's browser test takes them at the points it
 * checks (test/dashboard.e2e.test.ts), so the pictures show what the test proved; here it writes them
 * into docs/screenshots/ instead of the temporary folder of a test run (tests never write into the
 * repository). Needs Chromium at /usr/bin/chromium. Commit the changed pictures yourself.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { SKIP_BROWSER } from '../test/helpers/browser.ts';
import { ensurePgliteTemplate } from '../test/helpers/databases.ts';

const root = join(import.meta.dirname, '..');

if (SKIP_BROWSER) {
  console.error(`npm run screenshots: ${SKIP_BROWSER}`);
  process.exit(1);
}
await ensurePgliteTemplate();
const dir = join(root, 'docs', 'screenshots');
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', join('test', 'dashboard.e2e.test.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, SCREENSHOTS_DIR: dir },
});
if (r.status !== 0) {
  console.error('npm run screenshots: the browser test failed; the pictures in docs/screenshots/ may be partly updated');
  process.exit(r.status ?? 1);
}
console.log(`npm run screenshots: pictures written to ${dir} (git status docs/screenshots shows which changed)`);
