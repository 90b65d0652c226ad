import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../../src/store/db.ts';
import { migrate } from '../../src/store/migrate.ts';
import { MIGRATIONS } from '../../src/store/migrations/index.ts';
import { PgliteDb } from '../../src/store/pglite-db.ts';
import { PostgresDb } from '../../src/store/postgres-db.ts';

export interface DbTarget {
  name: 'pglite' | 'postgres';
  open(): Promise<Db>;
}

const CACHE_DIR = join(import.meta.dirname, '..', '..', '.cache');

function templatePath(): string {
  const hash = createHash('sha256');
  for (const m of MIGRATIONS) hash.update(m.name).update(m.sql);
  return join(CACHE_DIR, `pglite-template-${hash.digest('hex').slice(0, 16)}.tar`);
}

/**
 * A migrated PGlite data directory, dumped once and loaded by every test file: loading takes under
 * a second where a fresh start plus migrations takes several.
 */
export async function ensurePgliteTemplate(): Promise<string> {
  const path = templatePath();
  if (existsSync(path)) return path;
  const db = await PgliteDb.open('memory://');
  await migrate(db);
  const dump = await db.dump();
  await db.close();
  mkdirSync(CACHE_DIR, { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
  renameSync(tmp, path);
  return path;
}

async function openPglite(): Promise<Db> {
  const path = await ensurePgliteTemplate();
  const db = await PgliteDb.open('memory://', new Blob([readFileSync(path)]));
  // A no-op when the template is current; keeps a stale template from hiding a new migration.
  await migrate(db);
  return db;
}

async function openPostgres(url: string): Promise<Db> {
  const db = PostgresDb.open(url, 20);
  await migrate(db);
  return db;
}

/** PGlite always; PostgreSQL too when DATABASE_URL is set (CI sets it). */
export function dbTargets(): DbTarget[] {
  const targets: DbTarget[] = [{ name: 'pglite', open: openPglite }];
  const url = process.env.DATABASE_URL;
  if (url) targets.push({ name: 'postgres', open: () => openPostgres(url) });
  return targets;
}
