/**
 * The production start (docs/operations.md): `npm run build` once (here its server half,
 * `npm run build:server`; the dashboard's build has tests of its own), then plain `node dist/main.js`
 * (or `npm run start:prod`, which execs it) and `node dist/worker.js`: no TypeScript loader, and
 * the server is the process the supervisor signals. Run here on a copy of the package under
 * .cache/ (not the repository's dist/, which a parallel run may be writing; inside the repository
 * so that node and npm find node_modules), then each entry point migrates a fresh database, serves,
 * and stops gracefully on SIGTERM, on PGlite and, with DATABASE_URL, on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ROOT, runToExit, startApi, startWorker, waitForOutput } from './helpers/api-process.ts';
import { openScratchPostgres } from './helpers/isolated-databases.ts';
import { descendants, portOpen, sleep, stillRunning } from './helpers/processes.ts';

const ADMIN = `prod-build-admin-${randomUUID()}`;
let pkg: string;
let outDir: string;

before(async () => {
  mkdirSync(join(ROOT, '.cache'), { recursive: true });
  pkg = mkdtempSync(join(ROOT, '.cache', 'prod-test-'));
  for (const f of ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'src']) cpSync(join(ROOT, f), join(pkg, f), { recursive: true });
  outDir = join(pkg, 'dist');
  const r = await runToExit(['npm', 'run', 'build:server'], {}, 180_000, pkg);
  assert.equal(r.code, 0, `npm run build:server\n${r.stdout}\n${r.stderr}`);
});
after(() => rmSync(pkg, { recursive: true, force: true }));

function rssKb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
}

interface Target {
  name: string;
  env(): Promise<{ env: Record<string, string>; close(): Promise<void> }>;
}

const targets: Target[] = [
  {
    name: 'pglite',
    // A folder of its own each time: a data folder is one process's (data-dir-lock.ts).
    env: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'booking-prod-'));
      return { env: { DATA_DIR: dir }, close: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
];
const SERVER_URL = process.env.DATABASE_URL;
if (SERVER_URL) {
  targets.push({
    name: 'postgres',
    env: async () => {
      const db = await openScratchPostgres(SERVER_URL, { migrate: false });
      return { env: { DATABASE_URL: db.url }, close: () => db.close() };
    },
  });
}

for (const target of targets) {
  describe(`production start [${target.name}]`, () => {
    test('node dist/main.js: no loader, migrates a fresh database, serves, stops gracefully on SIGTERM', async (t) => {
      const db = await target.env();
      try {
        const api = await startApi(
          'prod-api',
          { ...db.env, ADMIN_TOKEN: ADMIN, SEED_DEMO: 'false', LOG_LEVEL: 'info' },
          { command: [process.execPath, join(outDir, 'main.js')] },
        );
        try {
          const cmdline = readFileSync(`/proc/${api.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
          assert.deepEqual(cmdline, [process.execPath, join(outDir, 'main.js')], 'the server is the process started');
          assert.deepEqual(
            descendants(api.pid).map((p) => p.cmdline),
            [],
            'no helper process (esbuild, a child node)',
          );
          const slug = `prod-${randomUUID().slice(0, 8)}`;
          const r = await fetch(`${api.url}/admin/v1/businesses`, {
            method: 'POST',
            headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
            body: JSON.stringify({ slug, name: 'Prod Salon', currency: 'HUF', subscription: { plan: 'pro', status: 'active' } }),
          });
          assert.equal(r.status, 200, `a write through the migrated schema: ${await r.text()}`);
          await sleep(2000);
          t.diagnostic(`idle RSS of node dist/main.js on ${target.name}: ${Math.round(rssKb(api.pid) / 1024)} MB`);
        } finally {
          await api.stop(20_000);
        }
        assert.deepEqual(await api.exit, { code: 0, signal: null }, api.output());
        assert.match(api.output(), /API stopping: finishing the work in flight/);
        assert.match(api.output(), /API stopped/);
      } finally {
        await db.close();
      }
    });

    test('npm run start:prod: SIGTERM to npm reaches the server, which stops gracefully; nothing is left', async () => {
      const db = await target.env();
      try {
        const api = await startApi(
          'prod-npm',
          { ...db.env, SEED_DEMO: 'false', LOG_LEVEL: 'info' },
          { command: ['npm', 'run', 'start:prod'], cwd: pkg },
        );
        const tree = descendants(api.pid);
        try {
          assert.deepEqual(
            tree.map((p) => p.cmdline),
            ['node dist/main.js'],
            'npm execs node: no shell, no loader',
          );
        } finally {
          await api.stop(20_000);
          for (const p of tree) if (stillRunning(p)) process.kill(p.pid, 'SIGKILL');
        }
        assert.deepEqual(await api.exit, { code: 0, signal: null }, api.output());
        assert.match(api.output(), /API stopped/);
        assert.equal(await portOpen(Number(new URL(api.url!).port)), false, 'the port is closed');
      } finally {
        await db.close();
      }
    });

    test('node dist/worker.js: starts, stops gracefully on SIGTERM', async () => {
      const db = await target.env();
      try {
        const worker = startWorker('prod-worker', { ...db.env, LOG_LEVEL: 'info' }, [process.execPath, join(outDir, 'worker.js')]);
        try {
          await waitForOutput(worker, /webhook worker started/);
        } finally {
          await worker.stop(20_000);
        }
        assert.deepEqual(await worker.exit, { code: 0, signal: null }, worker.output());
        assert.match(worker.output(), /webhook worker stopped/);
      } finally {
        await db.close();
      }
    });
  });
}
