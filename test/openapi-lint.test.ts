/**
 * The served OpenAPI document passes Redocly CLI (`recommended`) and Spectral (`spectral:oas`) with
 * no error and no warning, both run from devDependencies with the committed configurations
 * (redocly.yaml, .spectral.yaml). On failure the message lists each finding with its path in the
 * document (e.g. `paths./v1/bookings.post.responses.201`), so a newly merged route is quick to fix.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { dbTargets } from './helpers/databases.ts';
import { call, startHarness, type Harness } from './helpers/harness.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
// Neither CLI may phone home or nag from a test run.
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_UPDATE_NOTIFIER: '1' };

interface Finding {
  severity: string;
  rule: string;
  where: string;
  message: string;
}

/** One line per finding, so the failure names the operation (`#/paths/~1healthz/get`) to fix. */
function report(tool: string, findings: Finding[]): string {
  const lines = findings.map((f) => `  ${f.severity} ${f.rule} at ${f.where}: ${f.message}`);
  return `${tool}: ${findings.length} finding(s)\n${lines.join('\n')}`;
}

/** Runs a CLI that exits non-zero when it finds problems; its report is what counts. */
async function runLinter(file: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(file, args, { cwd: root, env, maxBuffer: 64 * 1024 * 1024, timeout: 240_000 });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; code?: unknown };
    if (typeof e.stdout === 'string' && e.stdout.trim().startsWith('{')) return { stdout: e.stdout, stderr: e.stderr ?? '' };
    if (typeof e.code === 'number') return { stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    throw err;
  }
}

const target = dbTargets().find((t) => t.name === 'pglite');

describe('OpenAPI document lint', { skip: target ? false : 'no PGlite target' }, () => {
  let h: Harness;
  let dir: string;
  let docPath: string;
  before(async () => {
    h = await startHarness(target!);
    const res = await call(h.app, { method: 'GET', url: '/v1/openapi.json' });
    assert.equal(res.status, 200);
    dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    docPath = join(dir, 'openapi.json');
    writeFileSync(docPath, JSON.stringify(res.body, null, 2));
  });
  after(async () => {
    await h?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('Redocly CLI (recommended): 0 errors, 0 warnings', async () => {
    const { stdout, stderr } = await runLinter(bin('redocly'), [
      'lint',
      docPath,
      '--config',
      join(root, 'redocly.yaml'),
      '--format',
      'json',
    ]);
    let out: { totals: { errors: number; warnings: number }; problems: any[] };
    try {
      out = JSON.parse(stdout);
    } catch {
      assert.fail(`redocly gave no JSON report:\n${stdout.slice(0, 2000)}\n${stderr.slice(0, 2000)}`);
    }
    const findings: Finding[] = out.problems.map((p) => ({
      severity: p.severity,
      rule: p.ruleId,
      where: (p.location ?? []).map((l: any) => l.pointer).join(', '),
      message: p.message,
    }));
    assert.deepEqual({ errors: out.totals.errors, warnings: out.totals.warnings }, { errors: 0, warnings: 0 }, report('redocly', findings));
  });

  test('Spectral (spectral:oas): 0 errors, 0 warnings', async () => {
    const outPath = join(dir, 'spectral.json');
    const { stderr } = await runLinter(bin('spectral'), [
      'lint',
      docPath,
      '--ruleset',
      join(root, '.spectral.yaml'),
      '--format',
      'json',
      '--output',
      outPath,
      '--quiet',
    ]);
    let results: Array<{ code: string; severity: number; path: string[]; message: string }>;
    try {
      results = JSON.parse(readFileSync(outPath, 'utf8'));
    } catch {
      assert.fail(`spectral gave no JSON report:\n${stderr.slice(0, 2000)}`);
    }
    const SEVERITY = ['error', 'warning', 'info', 'hint'];
    const findings: Finding[] = results.map((r) => ({
      severity: SEVERITY[r.severity] ?? String(r.severity),
      rule: r.code,
      where: r.path.join('.'),
      message: r.message,
    }));
    const failing = findings.filter((f) => f.severity === 'error' || f.severity === 'warning');
    assert.equal(failing.length, 0, report('spectral', findings));
  });
});
