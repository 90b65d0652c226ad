/**
 * SQLSTATEs are known only in src/store (docs/architecture.md, Conventions): outside it, a module
 * may take from store/db-errors.ts the translator and the typed errors, never a SQLSTATE predicate.
 * The layer rules (dependency-cruiser) see files, not names, so the names are checked here.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

const SRC = join(import.meta.dirname, '..', 'src');
const ALLOWED_OUTSIDE_STORE = new Set(['fromDbError', 'DatabaseBusyError', 'connectRefusal']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sourceFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

test('nothing outside src/store imports a SQLSTATE predicate', () => {
  const offending: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const path = relative(SRC, file);
    if (path.startsWith('store/')) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'[^']*store\/db-errors\.ts'/g)) {
      const names = m[1]!
        .split(',')
        .map((n) =>
          n
            .replace(/^\s*type\s+/, '')
            .split(/\s+as\s+/)[0]!
            .trim(),
        )
        .filter(Boolean);
      for (const name of names) if (!ALLOWED_OUTSIDE_STORE.has(name)) offending.push(`${path}: ${name}`);
    }
    if (/import\s+\*\s+as\s+\w+\s+from\s+'[^']*store\/db-errors\.ts'/.test(text)) offending.push(`${path}: *`);
  }
  assert.deepEqual(offending, []);
});
