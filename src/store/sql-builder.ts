import {
  type AliasedRawBuilder,
  type CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
} from 'kysely';
import type { Queryable, QueryResult } from './db.ts';

/**
 * Kysely as a query builder only (docs/architecture.md, "SQL in the store"): it compiles
 * PostgreSQL text and numbered parameters and never connects (DummyDriver), so whatever it builds
 * runs through our own `Queryable` — inside our transactions, on PGlite and node-postgres alike.
 * `DB` names the tables (and CTEs) a module builds against; an instance holds no state, so each
 * module makes its own once.
 */
export function queryBuilder<DB>(): Kysely<DB> {
  return new Kysely<DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}

/** Runs a compiled query (or anything that compiles to one) on our connection or transaction. */
export function runCompiled<R>(q: Queryable, query: CompiledQuery<R> | { compile(): CompiledQuery<R> }): Promise<QueryResult<R>> {
  const c = 'compile' in query ? query.compile() : query;
  return q.query<R>(c.sql, c.parameters);
}

/**
 * A named row as a SELECT list, `$n AS "column"` each (an expression such as sql`tstzrange(…)` is
 * inlined instead), for `INSERT INTO t (columns) SELECT …`: unlike VALUES, the select can be made
 * conditional on a CTE (`FROM held`) while the columns still come from one object, not positions.
 */
export function selectList<Row extends object>(row: Row): Array<AliasedRawBuilder<unknown, Extract<keyof Row, string>>> {
  return (Object.keys(row) as Array<Extract<keyof Row, string>>).map((column) => sql`${row[column]}`.as(column));
}
