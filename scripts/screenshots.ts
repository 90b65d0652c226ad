/**
 * `npm run screenshots`: refreshes docs/screenshots/*.png (the calendar, requests, booking detail,
 * Settings page and the calendar on a phone that docs/dashboard.md and the README show). The
 * dashboard's browser tests take them at the points they check (test/dashboard.e2e.test.ts,
 * test/dashboard-settings.e2e.test.ts, test/dashboard-narrow.e2e.test.ts), so the pictures show
 * what the tests proved; here they write them into docs/screenshots/ instead of the temporary folder
 * of a test run (tests never write into the repository), one file after the other. Needs Chromium at
 * /usr/bin/chromium. Commit the changed pictures yourself.
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
// The Settings page's picture and the phone's calendar come from their own browser tests.
const files = [
  join('test', 'dashboard.e2e.test.ts'),
  join('test', 'dashboard-settings.e2e.test.ts'),
  join('test', 'dashboard-narrow.e2e.test.ts'),
];
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, SCREENSHOTS_DIR: dir },
});
if (r.status !== 0) {
  console.error('npm run screenshots: the browser test failed; the pictures in docs/screenshots/ may be partly updated');
  process.exit(r.status ?? 1);
}
console.log(`npm run screenshots: pictures written to ${dir} (git status docs/screenshots shows which changed)`);
