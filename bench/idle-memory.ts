/**
 * `npm run bench:idle-memory` (issue 16): the resident memory of the production server process at
 * idle, and what holds PGlite's part of it.
 *
 * 1. The production start (`npm run start:prod`'s command without npm: `node dist/main.js`, built by
 *    `npm run build:server`) as a child process on 127.0.0.1: PGlite in a fresh DATA_DIR under the
 *    temp folder with SEED_DEMO=true (first start: initdb, migrations, demo seed), the same DATA_DIR
 *    started again (a restart), and PostgreSQL when DATABASE_URL is set (in a schema of its own,
 *    dropped at the end). RSS (VmRSS of /proc/<pid>/status, summed over the process and its
 *    children) once /readyz answers, after 20 warm rounds (under the availability limit of 30 a minute) of the demo catalogue and a one-day
 *    availability search, and after BENCH_IDLE seconds (default 10) of idle; then the V8 heap and
 *    `external` (which counts PGlite's WebAssembly memory at its full size, touched or not) from
 *    process.memoryUsage() inside the server. A restart with V8's young generation held at 2 MB
 *    (`--max-semi-space-size=2`, the operator's option of docs/operations.md) shows what that
 *    flag saves; BENCH_IDLE_BARE=false skips those rows.
 * 2. PGlite alone, each in a node process of its own, to see what the engine holds without the
 *    server: node alone, PGlite on memory://, PGlite on a fresh data directory (initdb in process),
 *    the same directory reopened, and reopened with smaller settings (initialMemory, shared_buffers),
 *    each before and after a forced garbage collection.
 * BENCH_IDLE_PART=servers|alone runs one part. Stops every process it starts by its id; listens on
 * 127.0.0.1 only.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PostgresDb } from '../src/store/postgres-db.ts';

const IDLE_S = Number(process.env.BENCH_IDLE ?? 10);
const ROOT = new URL('..', import.meta.url).pathname;

async function rssKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

/** The process and every descendant (from /proc/<pid>/task/<tid>/children). */
async function tree(pid: number): Promise<number[]> {
  const out = [pid];
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  for (const t of tasks) {
    const children = await readFile(`/proc/${pid}/task/${t}/children`, 'utf8').catch(() => '');
    for (const c of children.split(' ').filter(Boolean)) out.push(...(await tree(Number(c))));
  }
  return out;
}

async function treeRssMb(pid: number): Promise<number> {
  let kb = 0;
  for (const p of await tree(pid)) kb += await rssKb(p);
  return kb / 1024;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const done = await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)]);
  if (!done) child.kill('SIGKILL');
}

/** `npm run start:prod`'s command without npm: `exec node [flags] dist/main.js` → [flags, dist/main.js]. */
async function startProdArgs(): Promise<string[]> {
  const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const words = pkg.scripts['start:prod']!.split(/\s+/).filter((w) => w && w !== 'exec');
  if (words[0] !== 'node') throw new Error(`start:prod is not "node ...": ${pkg.scripts['start:prod']}`);
  return words.slice(1);
}

// Loaded with --import into the server: on SIGUSR2 it prints the V8 heap and external memory, so the
// RSS can be split into the JavaScript heap and the rest (code, PGlite's WebAssembly memory, malloc).
const PROBE = `data:text/javascript,${encodeURIComponent(`process.on('SIGUSR2', () => { const m = process.memoryUsage(); process.stderr.write('PROBE ' + JSON.stringify(m) + '\\n'); });`)}`;

// The operator's option of docs/operations.md: V8's young generation held at 2 MB
// (BENCH_IDLE_BARE=false skips these rows).
const SMALL_YOUNG = ['--max-semi-space-size=2'];

/** A demo key and a catalogue URL from the banner of a start that seeded (stdout's export line). */
const demo: Record<string, { key: string; path: string }> = {};

/**
 * The production start until /readyz answers; RSS then, after a few warm requests (the demo
 * catalogue and availability, when the demo key is known) and after IDLE_S seconds.
 */
async function server(label: string, env: Record<string, string>, demoSlot: string, flagsOverride?: string[]): Promise<void> {
  const port = await freePort();
  const started = performance.now();
  const args = flagsOverride ? [...flagsOverride, 'dist/main.js'] : await startProdArgs();
  const child = spawn(process.execPath, ['--import', PROBE, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (d) => (stderr += d));
  child.stdout!.on('data', (d) => (stdout += d));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${label}: exited ${child.exitCode}: ${stderr}`);
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`)
        .then((r) => r.status === 200)
        .catch(() => false);
      if (ok) break;
      if (performance.now() - started > 120_000) throw new Error(`${label}: not ready in 120 s: ${stderr}`);
      await sleep(100);
    }
    const ready = performance.now() - started;
    const atReady = await treeRssMb(child.pid!);
    // the banner (with the demo key on a first start) is printed once the seed is done
    for (let t = 0; !stdout.includes('Booking API listening') && t < 300; t++) await sleep(100);
    // the start's `export BASE=… KEY=… SALON=… LOCATION=…` line (docs/integrator-guide.md's quick start)
    const seeded = /export BASE=\S+ KEY=(\S+) SALON=(\S+) LOCATION=(\S+)/.exec(stdout);
    if (seeded) demo[demoSlot] = { key: seeded[1]!, path: `/v1/services?salonSlug=${seeded[2]}&locationSlug=${seeded[3]}` };
    const d = demo[demoSlot];
    let warm = 0;
    let failed: string | undefined;
    if (d) {
      const day = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
      const services = (await (
        await fetch(`http://127.0.0.1:${port}${d.path}`, { headers: { authorization: `Bearer ${d.key}` } })
      ).json()) as { data?: { services?: Array<{ id: string }> } };
      const q = new URL(d.path, 'http://x').searchParams;
      const search = JSON.stringify({
        salonSlug: q.get('salonSlug'),
        locationSlug: q.get('locationSlug'),
        serviceId: services.data?.services?.[0]?.id,
        dateRange: { from: day, to: day },
      });
      const headers = { authorization: `Bearer ${d.key}`, 'content-type': 'application/json' };
      for (let i = 0; i < 20; i++) {
        for (const r of [
          await fetch(`http://127.0.0.1:${port}${d.path}`, { headers }),
          await fetch(`http://127.0.0.1:${port}/v1/availability/search`, { method: 'POST', headers, body: search }),
        ]) {
          const body = await r.text();
          if (r.status === 200) warm++;
          else failed ??= `${r.status} ${body.slice(0, 200)}`;
        }
      }
    }
    if (failed) console.error(`${label}: a warm request failed: ${failed}`);
    const afterWarm = await treeRssMb(child.pid!);
    await sleep(IDLE_S * 1000);
    const idle = await treeRssMb(child.pid!);
    child.kill('SIGUSR2');
    const t0 = performance.now();
    while (!stderr.includes('PROBE') && performance.now() - t0 < 5000) await sleep(50);
    const m = JSON.parse(/PROBE (\{.*\})/.exec(stderr)?.[1] ?? '{}') as Partial<NodeJS.MemoryUsage>;
    const mb = (n: number | undefined) => (n === undefined ? '?' : (n / 2 ** 20).toFixed(0));
    const procs = (await tree(child.pid!)).length;
    console.log(
      `| ${label} | ${procs} | ${(ready / 1000).toFixed(1)} s | ${atReady.toFixed(0)} MB | ${afterWarm.toFixed(0)} MB (${warm} × 200) | ${idle.toFixed(0)} MB | ${mb(m.heapTotal)} / ${mb(m.heapUsed)} MB | ${mb(m.external)} MB |`,
    );
  } finally {
    await stop(child);
  }
}

/** One PGlite (or nothing) in a node process of its own; its RSS after open + a query, idle, and after gc(). */
async function alone(label: string, script: string): Promise<void> {
  try {
    await aloneOnce(label, script);
  } catch (err) {
    console.log(
      `| ${label} | failed: ${
        String((err as Error).message)
          .split('\n')
          .find((l) => /Error/.test(l)) ?? (err as Error).message
      } | | | | |`,
    );
  }
}

async function aloneOnce(label: string, script: string): Promise<void> {
  const child = spawn(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  try {
    const t0 = performance.now();
    while (!stdout.includes('ready')) {
      if (child.exitCode !== null) throw new Error(`${label}: exited ${child.exitCode}: ${stderr}`);
      if (performance.now() - t0 > 120_000) throw new Error(`${label}: not ready`);
      await sleep(50);
    }
    const wasm = /wasm=(\d+)/.exec(stdout)?.[1];
    const sb = /sb=(\S+)/.exec(stdout)?.[1];
    const atReady = await treeRssMb(child.pid!);
    await sleep(IDLE_S * 1000);
    const idle = await treeRssMb(child.pid!);
    child.kill('SIGUSR2'); // the script answers with gc() and prints "gc"
    while (!stdout.includes('gc')) {
      if (child.exitCode !== null) break;
      await sleep(50);
    }
    await sleep(500);
    const afterGc = await treeRssMb(child.pid!);
    console.log(
      `| ${label} | ${atReady.toFixed(0)} MB | ${idle.toFixed(0)} MB | ${afterGc.toFixed(0)} MB | ${wasm ? `${(Number(wasm) / 2 ** 20).toFixed(0)} MB` : '—'} | ${sb ?? '—'} |`,
    );
  } finally {
    await stop(child);
  }
}

function pgliteScript(dataDir: string | undefined, options: string, work = true): string {
  return `
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
const pg = await PGlite.create(${dataDir === undefined ? 'undefined' : JSON.stringify(dataDir)}, { extensions: { btree_gist }, ${options} });
${work ? "await pg.exec('CREATE EXTENSION IF NOT EXISTS btree_gist; CREATE TABLE IF NOT EXISTS t (id int primary key, v text); INSERT INTO t SELECT g, md5(g::text) FROM generate_series(1, 20000) g ON CONFLICT DO NOTHING'); await pg.query('SELECT count(*) FROM t');" : "await pg.query('SELECT 1');"}
const wasm = pg.mod?.HEAPU8?.byteLength ?? pg.mod?.wasmMemory?.buffer?.byteLength;
const sb = (await pg.query("SELECT current_setting('shared_buffers') AS sb")).rows[0].sb;
console.log('ready wasm=' + (wasm ?? '') + ' sb=' + sb + ' ');
process.on('SIGUSR2', () => { globalThis.gc(); globalThis.gc(); console.log('gc'); });
process.on('SIGTERM', async () => { await pg.close(); process.exit(0); });
setInterval(() => {}, 1 << 30);
`;
}

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist/main.js'))) {
    console.error('dist/main.js is missing: run `npm run build:server` first (npm run bench:idle-memory does)');
    process.exit(2);
  }
  console.log(
    `idle-memory bench: node ${process.version}, ${cpus().length} cores, ${new Date().toISOString()}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')}`,
  );
  const tmp = await mkdtemp(join(tmpdir(), 'bench-idle-'));
  try {
    if (process.env.BENCH_IDLE_PART !== 'alone') await servers(tmp);
    if (process.env.BENCH_IDLE_PART !== 'servers') await aloneAll(tmp);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  console.log(
    `\nload after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')}`,
  );
}

async function servers(tmp: string): Promise<void> {
  {
    const prod = (await startProdArgs()).join(' ');
    console.log(`\n## node ${prod} (npm run start:prod without npm), RSS of the process tree (idle ${IDLE_S} s)`);
    console.log('| Server | processes | ready after | RSS at ready | after warm requests | RSS idle | V8 heap total / used | external |');
    console.log('|---|---|---|---|---|---|---|---|');
    const dataDir = join(tmp, 'server-data');
    await server('PGlite, fresh DATA_DIR, SEED_DEMO=true (first start)', { DATA_DIR: dataDir, SEED_DEMO: 'true' }, 'pglite');
    await server('PGlite, same DATA_DIR (restart)', { DATA_DIR: dataDir, SEED_DEMO: 'true' }, 'pglite');
    if (process.env.BENCH_IDLE_BARE !== 'false') {
      await server('PGlite, restart, --max-semi-space-size=2', { DATA_DIR: dataDir }, 'pglite', SMALL_YOUNG);
    }
    const databaseUrl = process.env.DATABASE_URL;
    if (databaseUrl) {
      const schema = `bench_idle_${process.pid}`;
      const admin = PostgresDb.open(databaseUrl, 1);
      await admin.exec(`CREATE SCHEMA ${schema}`);
      const url = new URL(databaseUrl);
      url.searchParams.set('options', `-c search_path=${schema},public`);
      try {
        await server('PostgreSQL, fresh schema, SEED_DEMO=true', { DATABASE_URL: url.toString(), SEED_DEMO: 'true' }, 'pg');
        if (process.env.BENCH_IDLE_BARE !== 'false') {
          await server('PostgreSQL, restart, --max-semi-space-size=2', { DATABASE_URL: url.toString() }, 'pg', SMALL_YOUNG);
        }
      } finally {
        await admin.exec(`DROP SCHEMA ${schema} CASCADE`);
        await admin.close();
      }
    } else {
      console.log('| PostgreSQL | skipped: DATABASE_URL is not set | | | | | | |');
    }
  }
}

async function aloneAll(tmp: string): Promise<void> {
  {
    console.log(`\n## PGlite alone, one node process each (open, 20,000 rows written and counted; idle ${IDLE_S} s; then gc())`);
    console.log('| Process | RSS at ready | RSS idle | RSS after gc() | wasm memory | shared_buffers |');
    console.log('|---|---|---|---|---|---|');
    await alone(
      'node alone (no PGlite)',
      "console.log('ready'); process.on('SIGUSR2', () => { globalThis.gc(); console.log('gc'); }); process.on('SIGTERM', () => process.exit(0)); setInterval(() => {}, 1 << 30);",
    );
    await alone('PGlite memory:// (initdb in process)', pgliteScript(undefined, ''));
    const dir = join(tmp, 'alone-data');
    await alone('PGlite fresh data dir (initdb in process)', pgliteScript(dir, ''));
    await alone('PGlite same data dir reopened', pgliteScript(dir, ''));
    await alone('reopened, relaxedDurability', pgliteScript(dir, 'relaxedDurability: true'));
    // below 128 MB PGlite refuses (the module declares 2,048 pages of 64 KiB): a link error, shown as such
    await alone('reopened, initialMemory 32 MB', pgliteScript(dir, 'initialMemory: 32 * 2 ** 20'));
    await alone(
      'reopened, shared_buffers=16MB',
      pgliteScript(dir, "startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB']"),
    );
    await alone(
      'reopened, shared_buffers=16MB + work_mem=1MB + temp_buffers=1MB',
      pgliteScript(
        dir,
        "startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB', '-c', 'work_mem=1MB', '-c', 'temp_buffers=1MB']",
      ),
    );
    await alone(
      'memory://, shared_buffers=16MB',
      pgliteScript(undefined, "startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB']"),
    );
  }
}

await main();
