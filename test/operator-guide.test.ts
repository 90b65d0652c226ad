/**
 * docs/operator-guide.md is run, not just read: its ```sh blocks, exactly as written and in order,
 * as one bash script (stopping at the first failing line) against a fresh API process on the
 * embedded database. A guide line that no longer works fails here with the script's output.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type ServiceProcess, startApi } from './helpers/api-process.ts';

const GUIDE = join(import.meta.dirname, '..', 'docs', 'operator-guide.md');
const ADMIN = `operator-guide-${randomUUID()}`;

function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** What the guide tells the operator a guest pays for a price it lists: "`39` is 39.00 EUR". */
function promisedGuestPrice(markdown: string): { listed: number; shown: string } {
  const m = /`(\d+(?:\.\d+)?)` is (\d+\.\d\d [A-Z]{3})/.exec(markdown);
  assert.ok(m, 'the guide says what a listed price means to a guest ("`39` is 39.00 EUR")');
  return { listed: Number(m[1]), shown: m[2]! };
}

/** The Haircut's `price` as the guide's step 3 sends it. */
function haircutListedAmount(markdown: string): number {
  const m = /"name": "Haircut"[\s\S]*?"price": \{ "amount": ([\d.]+), "currency": "EUR" \}/.exec(markdown);
  assert.ok(m, 'the guide creates the Haircut with a price');
  return Number(m[1]);
}

let api: ServiceProcess;
let dir: string;
before(async () => {
  api = await startApi('operator-guide', { DATA_DIR: 'memory://', ADMIN_TOKEN: ADMIN, SEED_DEMO: 'false', WEBHOOK_WORKER: 'false' });
  dir = mkdtempSync(join(tmpdir(), 'operator-guide-'));
});
after(async () => {
  await api?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the guide has its steps as shell blocks', () => {
  assert.ok(shellBlocks(readFileSync(GUIDE, 'utf8')).length >= 7);
});

test('every curl line of docs/operator-guide.md works, in order, on a fresh server', () => {
  // After the guide: the public services list as a guest's booking widget gets it, with the guide's key.
  const services = join(dir, 'services.json');
  const publicList = `curl -fsS -H "Authorization: Bearer $KEY" "$BASE/v1/services?salonSlug=studio-hair&locationSlug=city" > '${services}'`;
  const script = ['set -euo pipefail', ...shellBlocks(readFileSync(GUIDE, 'utf8')), publicList].join('\n');
  const r = spawnSync('bash', ['-c', script], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', BASE: api.url!, ADMIN },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(r.status, 0, `the guide stopped (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);

  // A guide that said minor units (`3900` for 39.00 EUR) listed the haircut at 3,900.00 EUR.
  const guide = readFileSync(GUIDE, 'utf8');
  const promised = promisedGuestPrice(guide);
  assert.equal(haircutListedAmount(guide), promised.listed, 'the guide lists the Haircut at the price its explanation uses');
  const listed = JSON.parse(readFileSync(services, 'utf8')) as {
    data: { services: { name: string; price: { amount: number; currency: string } }[] };
  };
  const haircut = listed.data.services.find((s) => s.name === 'Haircut');
  assert.ok(haircut, 'the public services list has the Haircut');
  assert.equal(`${haircut.price.amount.toFixed(2)} ${haircut.price.currency}`, promised.shown, 'what a guest sees is what the guide says');
});
