/** Picks the job dialect for the open database. */
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import type { JobDialect } from './dialect.js';
import { createPostgresJobDialect } from './dialects/postgres.js';
import { createSqliteJobDialect } from './dialects/sqlite.js';

export function createJobDialect(database: Database, logger?: Logger): JobDialect {
  if (database.kind === 'sqlite') return createSqliteJobDialect();
  return createPostgresJobDialect({ url: database.url, ...(logger ? { logger } : {}) });
}
