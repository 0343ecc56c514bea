/** Picks the job dialect for the open database. */
import type { Database } from '../db/database.js';
import type { JobDialect } from './dialect.js';
import { sqliteJobDialect } from './dialects/sqlite.js';

export function createJobDialect(database: Database): JobDialect {
  if (database.kind === 'sqlite') return sqliteJobDialect;
  throw new Error('the postgres job dialect is not available in this build');
}
