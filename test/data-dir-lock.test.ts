/**
 * One process per embedded database folder (DATA_DIR): a second API or worker process on it refuses
 * to start (exit 75, one line naming the folder and the holder), a SIGKILLed holder never blocks the
 * next start, and the rules behind that (src/store/data-dir-lock.ts) hold for a reused pid, a holder
 * on another host, and several processes racing for one folder. Real processes and real folders.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CAPABILITIES } from '../src/domain/capabilities.ts';
import { DataDirLockedError, LOCK_FILE, lockDataDir, type LockHolder } from '../src/store/data-dir-lock.ts';
import { PgliteDb } from '../src/store/pglite-db.ts';
import { ROOT, runToExit, startApi } from './helpers/api-process.ts';
import { descendants, freePort, waitFor } from './helpers/processes.ts';

const MAIN = [process.execPath, '--import', 'tsx', 'src/main.ts'];
const WORKER = [process.execPath, '--import', 'tsx', 'src/worker.ts'];
const ADMIN = `lock-test-admin-${randomUUID()}`;

const dirs: string[] = [];
const children = new Set<ChildProcess>();
function scratchDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'booking-lock-'));
  dirs.push(d);
  return d;
}
after(() => {
  for (const c of children) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function spawnChild(args: string[]): ChildProcess {
  const c = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(c);
  c.once('exit', () => children.delete(c));
  return c;
}

function exitOf(c: ChildProcess): Promise<void> {
  return new Promise((resolve) => (c.exitCode !== null || c.signalCode !== null ? resolve() : c.once('exit', () => resolve())));
}

/** A lock file as this machine's process `pid` would have written it. */
function writeLock(dir: string, fields: Partial<LockHolder>): void {
  const probe = lockDataDir(scratchDir());
  probe.release();
  writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ ...probe.holder, nonce: randomUUID(), ...fields }));
}

/**
 * Runs `check` while another process refreshes the lock file's mtime every 200 ms, as a holder
 * elsewhere does; the lock check blocks this process while it watches that heartbeat.
 */
async function whileBeating(path: string, check: () => void): Promise<void> {
  const beat = spawnChild([
    '-e',
    `const fs = require('fs'); setInterval(() => { const t = new Date(); fs.utimesSync(${JSON.stringify(path)}, t, t); }, 200);`,
  ]);
  try {
    check();
  } finally {
    beat.kill('SIGKILL');
    await exitOf(beat);
  }
}

function assertOneLineNoStack(stderr: string): void {
  const lines = stderr.split('\n').filter((l) => l.trim() !== '');
  assert.equal(lines.length, 1, `stderr is one line:\n${stderr}`);
  assert.doesNotMatch(stderr, /^\s+at /m, 'no stack trace');
}

async function admin(base: string, path: string, body: unknown): Promise<any> {
  const r = await fetch(`${base}/admin/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await r.json()) as any;
  assert.ok(r.status < 300, `${path} -> ${r.status} ${JSON.stringify(json)}`);
  return json.data;
}

test('a second API process and a worker on the same DATA_DIR refuse to start: exit 75, one line naming the folder and the holder', async () => {
  const dir = scratchDir();
  const holder = await startApi('holder', { DATA_DIR: dir, SEED_DEMO: 'false', LOG_LEVEL: 'info' });
  try {
    for (const command of [MAIN, WORKER]) {
      const r = await runToExit(command, { DATA_DIR: dir, PORT: String(await freePort()), HOST: '127.0.0.1', SEED_DEMO: 'false' }, 30_000);
      assert.equal(r.code, 75, `${command.at(-1)}: exit code\n${r.stdout}\n${r.stderr}`);
      assertOneLineNoStack(r.stderr);
      assert.ok(r.stderr.includes(realpathSync(dir)), `names the folder: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`process ${holder.pid}\\b`), 'names the holder');
    }
    assert.equal((await fetch(`${holder.url}/healthz`)).status, 200, 'the holder still serves');
  } finally {
    await holder.stop(20_000);
  }
  assert.match(holder.output(), /API stopped/, holder.output());
  assert.equal(existsSync(join(dir, LOCK_FILE)), false, 'a graceful stop releases the lock');
});

test('a SIGKILLed holder leaves a lock that never blocks the next start; what it acknowledged is there', async () => {
  const dir = scratchDir();
  const env = { DATA_DIR: dir, SEED_DEMO: 'false', ADMIN_TOKEN: ADMIN };
  const first = await startApi('killed', env);
  let key: string;
  try {
    const slug = `lock-${randomUUID().slice(0, 8)}`;
    await admin(first.url!, '/businesses', { slug, name: 'Lock Salon', currency: 'HUF', subscription: { plan: 'pro', status: 'active' } });
    key = (
      await admin(first.url!, `/businesses/${slug}/api-keys`, {
        name: 'k',
        type: 'integration',
        kind: 'owner',
        capabilities: [...CAPABILITIES],
      })
    ).apiKey.secret;
  } finally {
    process.kill(first.pid, 'SIGKILL');
    await first.exit;
  }
  assert.ok(existsSync(join(dir, LOCK_FILE)), 'the killed process left its lock behind');

  const next = await startApi('next', env);
  try {
    const r = await fetch(`${next.url}/v1/subscription`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(r.status, 200, 'the key the killed process issued is there');
    assert.equal((JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as LockHolder).pid, next.pid, 'the lock is the new process’s');
  } finally {
    await next.stop(20_000);
  }
});

test('one process cannot open a folder twice either (PgliteDb), and may again once it closed it', { timeout: 60_000 }, async () => {
  const dir = scratchDir();
  const db = await PgliteDb.open(dir);
  try {
    await assert.rejects(PgliteDb.open(dir), (err: unknown) => err instanceof DataDirLockedError && err.holder.pid === process.pid);
  } finally {
    await db.close();
  }
  assert.equal(existsSync(join(dir, LOCK_FILE)), false, 'close() releases the lock');
  const again = await PgliteDb.open(dir);
  await again.close();
});

test('a lock whose pid now belongs to a process started at another time is stale; a matching one holds', async () => {
  const dir = scratchDir();
  const other = spawnChild(['-e', 'setInterval(() => {}, 100000)']);
  try {
    const info = descendants(process.pid).find((p) => p.pid === other.pid);
    assert.ok(info, 'the child is visible in /proc');
    writeLock(dir, { pid: other.pid!, startTicks: info.startTicks });
    assert.throws(
      () => lockDataDir(dir),
      (err: unknown) => err instanceof DataDirLockedError && err.holder.pid === other.pid,
    );
    writeLock(dir, { pid: other.pid!, startTicks: info.startTicks - 1 });
    lockDataDir(dir).release();
  } finally {
    other.kill('SIGKILL');
  }
});

test('a holder in another host or pid namespace holds while its heartbeat moves; a silent one is taken over', async () => {
  const dir = scratchDir();
  const path = join(dir, LOCK_FILE);
  writeLock(dir, { pid: 1, host: 'elsewhere.example', pidNamespace: 'pid:[1]' });
  await whileBeating(path, () =>
    assert.throws(
      () => lockDataDir(dir, { staleAfterMs: 2000 }),
      (err: unknown) => err instanceof DataDirLockedError && err.holder.host === 'elsewhere.example',
    ),
  );
  const started = Date.now();
  const lock = lockDataDir(dir, { staleAfterMs: 2000 });
  lock.release();
  assert.ok(Date.now() - started >= 1500, `it watched the heartbeat before taking over (${Date.now() - started} ms)`);
});

test('a holder with this hostname and pid namespace but another boot id (another machine) holds while its heartbeat moves', async () => {
  const dir = scratchDir();
  const path = join(dir, LOCK_FILE);
  writeLock(dir, { pid: 1, bootId: 'another-machine-boot-id' });
  await whileBeating(path, () =>
    assert.throws(
      () => lockDataDir(dir, { staleAfterMs: 2000 }),
      (err: unknown) => err instanceof DataDirLockedError && err.holder.bootId === 'another-machine-boot-id',
    ),
  );
});

test('a holder whose lock was taken over stops (onLost) instead of writing on beside the new holder', async () => {
  const dir = scratchDir();
  let lost: string | undefined;
  const lock = lockDataDir(dir, { onLost: (d) => (lost = d) });
  try {
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ ...lock.holder, nonce: randomUUID() }));
    const until = Date.now() + 5000;
    while (lost === undefined && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    assert.equal(lost, realpathSync(dir));
  } finally {
    lock.release();
  }
  assert.ok(existsSync(join(dir, LOCK_FILE)), "release() never removes another holder's lock");
});

test('processes starting together take a free folder, or break a stale lock, exactly once', async () => {
  for (const stale of [false, true]) {
    const dir = scratchDir();
    if (stale) {
      const gone = spawnChild(['-e', '']);
      await exitOf(gone);
      writeLock(dir, { pid: gone.pid!, startTicks: undefined });
    }
    const goAt = Date.now() + 5000;
    const racers = Array.from({ length: 4 }, () => spawnChild(['--import', 'tsx', 'test/helpers/lock-holder.ts', dir, String(goAt)]));
    const said = new Map<number, string>();
    for (const r of racers) r.stdout!.on('data', (b: Buffer) => said.set(r.pid!, b.toString().trim()));
    try {
      await waitFor('every racer to answer', async () => said.size === racers.length, 60_000, 100);
      const winners = [...said].filter(([, s]) => s === 'held').map(([pid]) => pid);
      assert.equal(winners.length, 1, `${stale ? 'stale lock' : 'free folder'}: ${JSON.stringify([...said])}`);
      for (const [pid, s] of said) if (pid !== winners[0]) assert.equal(s, `locked ${winners[0]}`);
      assert.equal((JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as LockHolder).pid, winners[0]);
    } finally {
      for (const r of racers) r.kill('SIGKILL');
      await Promise.all(racers.map(exitOf));
    }
  }
});
