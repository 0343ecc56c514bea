/**
 * The `pg` driver, loaded the first time a PostgreSQL connection is made: a process on
 * SQLite never loads it, nor holds its heap and code (docs/decisions/0047).
 */
import { createRequire } from 'node:module';
import type Pg from 'pg';

let loaded: typeof Pg | undefined;

export function pgModule(): typeof Pg {
  if (loaded) return loaded;
  // pg is CommonJS; its ES module entry wraps this same module, so the type parser set
  // here is the one every importer of 'pg' sees.
  const pg = createRequire(import.meta.url)('pg') as typeof Pg;
  // PostgreSQL returns bigint (int8) as strings by default; our bigints are epoch
  // milliseconds and token counts, all far below 2^53.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
  loaded = pg;
  return pg;
}
