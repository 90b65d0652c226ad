/**
 * What `npm start` prints is what the docs say it prints: README.md and docs/dashboard.md quote the
 * start lines in ```text blocks (`…` for the secrets and ids of a run, http://127.0.0.1:3000 and
 * ./data for the defaults). `npm start`, as README says, on an empty data folder of its own; every
 * quoted line must be one the server printed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, type ServiceProcess, startApi, waitForOutput } from './helpers/api-process.ts';

const DOCS = ['README.md', join('docs', 'dashboard.md')];

/** The ```text blocks of a page whose paragraph (or list item) before says what `npm start` prints. */
function quotedStartLines(markdown: string): string[][] {
  const blocks: string[][] = [];
  for (const m of markdown.matchAll(/^( *)```text\n([\s\S]*?)^\1```$/gm)) {
    const before =
      markdown
        .slice(0, m.index)
        .trimEnd()
        .split(/\n\s*\n/)
        .at(-1) ?? '';
    if (!before.includes('`npm start` prints')) continue;
    blocks.push(
      m[2]!
        .split('\n')
        .map((line) => line.slice(m[1]!.length))
        .filter((line) => line.trim() !== ''),
    );
  }
  return blocks;
}

const literally = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A quoted line as a pattern: `…` is any run of non-blank characters, the defaults this run's values. */
function linePattern(line: string, base: string, dataDir: string): RegExp {
  const parts = line.split('…').map((part) =>
    part
      .split('http://127.0.0.1:3000')
      .map((p) => p.split('./data').map(literally).join(literally(dataDir)))
      .join(literally(base)),
  );
  return new RegExp(`^${parts.join('\\S+')}$`);
}

let api: ServiceProcess;
let dataDir: string;
let printed: string[];
before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'start-output-'));
  api = await startApi(
    'npm-start-output',
    { DATA_DIR: dataDir, WEBHOOK_WORKER: 'false' },
    { command: ['npm', 'start'], timeoutMs: 120_000 },
  );
  await waitForOutput(api, /^Demo owner .*$/m);
  printed = api.stdout().split('\n');
});
after(async () => {
  await api?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('README.md and docs/dashboard.md quote the start lines', () => {
  for (const doc of DOCS) {
    const blocks = quotedStartLines(readFileSync(join(ROOT, doc), 'utf8'));
    assert.ok(blocks.length > 0, `${doc} quotes what npm start prints in a text block`);
  }
});

test('every quoted start line is one npm start printed', () => {
  const missing: string[] = [];
  for (const doc of DOCS) {
    for (const line of quotedStartLines(readFileSync(join(ROOT, doc), 'utf8')).flat()) {
      const pattern = linePattern(line, api.url!, dataDir);
      if (!printed.some((p) => pattern.test(p))) missing.push(`${doc}: ${line}`);
    }
  }
  assert.deepEqual(missing, [], `quoted but not printed; npm start printed:\n${api.stdout()}`);
});

test('the quotes name the demo owner, the dashboard URL, the booking page URL and the export line as printed', () => {
  const quoted = DOCS.flatMap((doc) => quotedStartLines(readFileSync(join(ROOT, doc), 'utf8')).flat());
  const owner = printed.find((l) => l.startsWith('Demo owner'));
  assert.ok(owner, api.stdout());
  const email = /email (\S+)/.exec(owner)![1]!;
  assert.ok(
    quoted.some((l) => l.includes(`email ${email} `)),
    `the docs quote the demo owner ${email}`,
  );
  assert.ok(owner.endsWith(` dashboard ${api.url}/dashboard/`), owner);
  assert.ok(
    quoted.some((l) => l.endsWith('dashboard http://127.0.0.1:3000/dashboard/')),
    'the docs quote the dashboard URL',
  );
  // The demo salon's booking page, beside the dashboard: the guests' side of the same salon.
  const salon = /^ {2}export .* SALON=(\S+)/m.exec(api.stdout())?.[1];
  assert.ok(salon, api.stdout());
  const bookingLine = printed.find((l) => l.startsWith("Demo salon's booking page: "));
  assert.equal(bookingLine, `Demo salon's booking page: ${api.url}/book/${salon}`, api.stdout());
  assert.equal(printed.indexOf(bookingLine), printed.indexOf(owner) + 1, 'printed right after the dashboard line');
  assert.ok(
    quoted.some((l) => l === "Demo salon's booking page: http://127.0.0.1:3000/book/demo-salon"),
    'the docs quote the booking page URL',
  );
  const names = (line: string) => [...line.matchAll(/ (\w+)=/g)].map((m) => m[1]);
  const exported = printed.find((l) => l.trim().startsWith('export '));
  assert.ok(exported, api.stdout());
  const quotedExport = quoted.find((l) => l.trim().startsWith('export '));
  assert.ok(quotedExport, 'the docs quote the export line');
  assert.deepEqual(names(quotedExport), names(exported));
});

test('the quote patterns are strict: another email or a missing line does not match', () => {
  const pattern = linePattern(
    'Demo owner (shown once): email owner@demo.example  password …  dashboard http://127.0.0.1:3000/dashboard/',
    'http://h:1',
    '/d',
  );
  assert.ok(pattern.test('Demo owner (shown once): email owner@demo.example  password p4ss  dashboard http://h:1/dashboard/'));
  assert.ok(!pattern.test('Demo owner (shown once): email owner@demo-salon.example  password p4ss  dashboard http://h:1/dashboard/'));
  assert.ok(!linePattern('Dashboard: http://127.0.0.1:3000/dashboard/', 'http://h:1', '/d').test('Booking API listening on http://h:1'));
});
