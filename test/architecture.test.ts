/**
 * The layer rules of docs/architecture.md, by dependency-cruiser (.dependency-cruiser.cjs): a new
 * violation fails here with the rule's name. Violations older than the rules are listed in
 * .dependency-cruiser-known-violations.json; the list may only shrink, so one that is fixed must
 * leave it (`npm run lint:layers:baseline` writes it anew).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';

const ROOT = join(import.meta.dirname, '..');
const CRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const KNOWN = join(ROOT, '.dependency-cruiser-known-violations.json');

function cruise(cwd: string, args: string[]): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [CRUISE, 'src', '--config', CONFIG, ...args], { cwd, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

type Violation = { from: string; to: string; rule: { name: string } };
const key = (v: Violation) => `${v.rule.name}: ${v.from} → ${v.to}`;

describe('layer rules', () => {
  test('src breaks no layer rule beyond the known violations', () => {
    const r = cruise(ROOT, ['--ignore-known', KNOWN, '--output-type', 'err']);
    assert.equal(r.status, 0, r.out);
  });

  test('every known violation still occurs (a fixed one leaves the list)', () => {
    const r = cruise(ROOT, ['--output-type', 'baseline']);
    const now = new Set((JSON.parse(r.out) as Violation[]).map(key));
    const known = (JSON.parse(readFileSync(KNOWN, 'utf8')) as Violation[]).map(key);
    const fixed = known.filter((k) => !now.has(k));
    assert.deepEqual(fixed, [], 'fixed violations still listed; run `npm run lint:layers:baseline`');
  });

  test('the rules catch what they forbid, by name', () => {
    // A tree of its own with one violation of each rule.
    const dir = mkdtempSync(join(tmpdir(), 'layers-'));
    try {
      const file = (path: string, text: string) => {
        mkdirSync(join(dir, path, '..'), { recursive: true });
        writeFileSync(join(dir, path), text);
      };
      file('src/domain/rule.ts', "import { run } from '../store/query.ts';\nexport const rule = run;\n");
      file('src/store/query.ts', "import { view } from '../domain/view.ts';\nexport const run = view;\n");
      file('src/domain/view.ts', 'export const view = 1;\n');
      file('src/webhooks/send.ts', "import { ctx } from '../http/ctx.ts';\nexport const send = ctx;\n");
      file('src/http/ctx.ts', "import { send } from '../webhooks/send.ts';\nexport const ctx = 1;\nexport const again = send;\n");
      file('src/http/routes/list.ts', "import { run } from '../../store/query.ts';\nexport const list = run;\n");
      file('tsconfig.json', readFileSync(join(ROOT, 'tsconfig.json'), 'utf8'));
      const r = cruise(dir, ['--output-type', 'err']);
      assert.notEqual(r.status, 0, r.out);
      for (const rule of [
        'domain-imports-only-domain',
        'store-imports-domain-types-only',
        'http-never-imported-from-below',
        'routes-call-use-cases',
        'no-circular',
      ]) {
        assert.match(r.out, new RegExp(`error ${rule}:`), `${rule} fires:\n${r.out}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
