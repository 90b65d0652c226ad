/**
 * docs/scheduling.md "A worked example" is run, not just read: its ```http blocks, as written and in
 * order, against a fresh in-process server on each database, with the clock the document names.
 * Every answer must show what the document shows (test/helpers/doc-http-blocks.ts says how a shown
 * answer is matched), so a step of the example that stops being true fails here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { dbTargets } from './helpers/databases.ts';
import { docSteps, matchShown, substitute } from './helpers/doc-http-blocks.ts';
import { uniqueSlug } from './helpers/fixtures.ts';
import { ADMIN_TOKEN, call, startHarness, type Harness } from './helpers/harness.ts';

const DOC = join(import.meta.dirname, '..', 'docs', 'scheduling.md');
/** The clock the example is written for; the document names it, so a reader knows the dates are fixed. */
const NOW = '2031-06-01T12:00:00Z';
const SLUG = 'studio-hair';

function workedExample(): string {
  const markdown = readFileSync(DOC, 'utf8');
  const m = /^## A worked example\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(markdown);
  assert.ok(m, 'docs/scheduling.md has a section "A worked example"');
  return m[1]!;
}

test('the worked example names its clock and has its steps as http blocks', () => {
  const section = workedExample();
  assert.ok(section.includes(`\`${NOW}\``), `the example says the server's clock is ${NOW}`);
  const steps = docSteps(section);
  assert.ok(steps.length >= 15, `${steps.length} steps`);
  const used = (path: string) => steps.some((s) => s.request.path.startsWith(path));
  for (const path of [
    '/admin/v1/businesses/studio-hair/resources',
    '/v1/availability/search',
    '/v1/bookings',
    '/v1/availability/explain',
  ]) {
    assert.ok(used(path), `the example calls ${path}`);
  }
});

for (const target of dbTargets()) {
  describe(`docs/scheduling.md worked example [${target.name}]`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness(target);
      h.clock.now = new Date(NOW);
    });
    after(() => h?.close());

    test('every step answers what the document shows, in order, on a fresh server', async () => {
      // A business slug of its own per run: runs share one PostgreSQL database and never clean up.
      const section = workedExample().replaceAll(SLUG, uniqueSlug('studio-hair'));
      const vars = new Map([['ADMIN_TOKEN', ADMIN_TOKEN]]);
      for (const [i, step] of docSteps(section).entries()) {
        const { method, path, headers, body } = step.request;
        const sent = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, substitute(v, vars)]));
        if (body !== undefined) sent['content-type'] = 'application/json';
        const r = await call(h.app, {
          method: method as 'GET' | 'POST',
          url: substitute(path, vars),
          headers: sent,
          ...(body === undefined ? {} : { payload: substitute(body, vars) }),
        });
        const where = `step ${i + 1} (${step.title})`;
        assert.equal(r.status, step.status, `${where}: ${r.raw}`);
        if (step.shown !== undefined) {
          const difference = matchShown(step.shown, r.body, vars);
          assert.equal(difference, null, `${where}: the answer differs from the document at ${difference}\n${r.raw}`);
        }
      }
    });
  });
}
