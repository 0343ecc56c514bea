/**
 * The `pg` driver, loaded the first time a PostgreSQL connection is made: a process on
 * SQLite never loads it, nor holds its heap and code (docs/decisions/0047). Node's module
 * cache keeps the one copy; nothing is remembered here.
 */
import { createRequire } from 'node:module';
import type Pg from 'pg';

const requirePg = createRequire(import.meta.url);

export function pgModule(): typeof Pg {
  // pg is CommonJS; its ES module entry wraps this same module, so the type parser set
  // here is the one every importer of 'pg' sees.
  const pg = requirePg('pg') as typeof Pg;
  // PostgreSQL returns bigint (int8) as strings by default; our bigints are epoch
  // milliseconds and token counts, all far below 2^53. Setting it again is harmless.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
  return pg;
}
