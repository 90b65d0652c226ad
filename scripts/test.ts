/**
 * `npm test`: every test file under test/ and under each client package's test folder
 * (clients/NAME/test), once. Each file loops its suites over PGlite and, when DATABASE_URL is set, PostgreSQL too
 * (REDIS_URL likewise adds the Redis-backed cases).
 */
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { availableParallelism } from 'node:os';
import { ensurePgliteTemplate } from '../test/helpers/databases.ts';

const root = join(import.meta.dirname, '..');

function findTests(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...findTests(p));
    else if (name.endsWith('.test.ts')) out.push(relative(root, p));
  }
  return out;
}

const only = process.argv.slice(2);
const clients = join(root, 'clients');
const clientTests = readdirSync(clients)
  .map((name) => join(clients, name, 'test'))
  .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory());
const files = only.length > 0 ? only : [join(root, 'test'), ...clientTests].flatMap(findTests);

await ensurePgliteTemplate();
console.log(
  `# databases: pglite${process.env.DATABASE_URL ? ' + postgres' : ''}; rate-limit store: in-process${process.env.REDIS_URL ? ' + redis' : ''}`,
);

const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${Math.max(2, availableParallelism())}`, ...files],
  { cwd: root, stdio: 'inherit', env: process.env },
);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
