/**
 * What the in-process database benches share: p50/p99 of a timed call after a warm-up, and a run of
 * one measurement on a fresh PGlite folder and, when DATABASE_URL is set, on a PostgreSQL database
 * of its own (created and dropped here), setting the exit code from both.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Db } from '../src/store/db.ts';
import { PgliteDb } from '../src/store/pglite-db.ts';
import { PostgresDb } from '../src/store/postgres-db.ts';

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

export async function time(run: () => Promise<unknown>, runs: number, warmup: number): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < warmup; i++) await run();
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await run();
    xs.push(performance.now() - t);
  }
  return { p50: percentile(xs, 50), p99: percentile(xs, 99) };
}

/** `measure` on PGlite, then on PostgreSQL when DATABASE_URL is set; exit code 1 when either says false. */
export async function inEachDatabase(name: string, measure: (label: string, db: Db) => Promise<boolean>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), `bench-${name}-`));
  let allOk = true;
  try {
    const lite = await PgliteDb.open(join(dir, 'data'));
    try {
      allOk &&= await measure('PGlite', lite);
    } finally {
      await lite.close();
    }
    const url = process.env.DATABASE_URL;
    if (url) {
      const database = `bench_${name}_${process.pid}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${database}`);
      const u = new URL(url);
      u.pathname = `/${database}`;
      const db = PostgresDb.open(u.toString(), 4);
      try {
        allOk &&= await measure('PostgreSQL', db);
      } finally {
        await db.close();
        await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
        await admin.end();
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  process.exitCode = allOk ? 0 : 1;
}
