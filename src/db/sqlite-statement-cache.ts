/**
 * Kysely's SQLite driver calls `prepare(sql)` for every query it runs, and better-sqlite3
 * compiles the statement anew each time: a visible share of the request path's CPU
 * (docs/benchmarks.md, "HTTP request path"). This wrapper hands Kysely the same
 * prepared statement for the same SQL text.
 *
 * Bounded, least recently used first out: SQL texts are finite except where a list is
 * spelled into them (`in ($1, $2, …)` of varying length), and those must not grow the
 * cache for ever. Reusing a statement is safe because the driver runs one query at a time
 * on its one connection and each run finishes (all/run) before the next starts; a
 * streamed query (`iterate`) holds the connection until it is done.
 */
import type { Database as BetterSqliteDatabase, Statement } from 'better-sqlite3';
import { LRUCache } from 'lru-cache';

export const STATEMENT_CACHE_SIZE = 256;

/** What Kysely's SqliteDialect needs of a database, plus the cache's size for tests. */
export interface CachingStatements {
  prepare(sql: string): Statement;
  close(): void;
  readonly cachedStatements: number;
}

export function cachingStatements(sqlite: BetterSqliteDatabase, capacity = STATEMENT_CACHE_SIZE): CachingStatements {
  const statements = new LRUCache<string, Statement>({ max: capacity });
  return {
    get cachedStatements() {
      return statements.size;
    },
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement === undefined) statements.set(sql, (statement = sqlite.prepare(sql)));
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}
