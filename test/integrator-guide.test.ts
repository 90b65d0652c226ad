/**
 * docs/integrator-guide.md states the error catalog and the rate limits as tables; an integrator
 * reads them instead of the code, so they must say what the code does.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ERROR_CATALOG } from '../src/domain/errors.ts';
import { RATE_LIMITS } from '../src/rate-limit/policy.ts';

const GUIDE = readFileSync(join(import.meta.dirname, '..', 'docs', 'integrator-guide.md'), 'utf8');

/** The cells of every table row whose first cell is a code span. */
function rows(markdown: string): string[][] {
  return markdown
    .split('\n')
    .filter((line) => /^\| `[^`]+` \|/.test(line))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

test('the error table of the guide is the catalog: every code once, with its status and retryable', () => {
  const table = new Map<string, { status: number; retryable: boolean }>();
  for (const [code, status, retryable] of rows(GUIDE)) {
    if (!/^`[a-z_]+\.[a-z_]+`$/.test(code!) || !/^\d{3}$/.test(status!)) continue;
    const name = code!.slice(1, -1);
    assert.ok(!table.has(name), `${name} is listed once`);
    assert.match(retryable!, /^(true|false)$/, `${name}: retryable`);
    table.set(name, { status: Number(status), retryable: retryable === 'true' });
  }
  assert.deepEqual(Object.fromEntries(table), Object.fromEntries(Object.entries(ERROR_CATALOG).map(([c, v]) => [c, { ...v }])));
});

test('the rate-limit table of the guide gives every group its limits per tier', () => {
  const table: Record<string, { standard: number; elevated: number }> = {};
  for (const line of GUIDE.split('\n')) {
    const m = /^\| (\w+) \| .* \| (\d+) \/ min \| (\d+) \/ min \|$/.exec(line);
    if (m) table[m[1]!] = { standard: Number(m[2]), elevated: Number(m[3]) };
  }
  assert.deepEqual(table, RATE_LIMITS);
});

test("the document's info.version is the guide's latest v1 release", async () => {
  const { openapiDocument } = await import('../src/http/openapi.ts');
  const { loadConfig } = await import('../src/config.ts');
  const releases = [...GUIDE.matchAll(/^\| (1\.\d+\.\d+) \(\d{4}-\d{2}-\d{2}\) \|/gm)].map((m) => m[1]!);
  assert.ok(releases.length >= 5, releases.join(', '));
  const doc = openapiDocument(loadConfig({ ADMIN_TOKEN: 'test-admin-token-0123456789' })) as { openapi: { info: { version: string } } };
  assert.equal(doc.openapi.info.version, releases.at(-1));
});
