/**
 * Opens the database named by DATABASE_URL: an embedded SQLite file, or PostgreSQL.
 * Everything above this file speaks Kysely and does not care which.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { DatabaseConfig } from '../config.js';
import type { DatabaseSchema } from './schema.js';
import { pgModule } from './pg-module.js';
import { cachingStatements } from './sqlite-statement-cache.js';
import { checkpointOffTheMainThread, type WalCheckpointOptions } from './wal-checkpoints.js';

export type Db = Kysely<DatabaseSchema>;

export interface Database {
  readonly db: Db;
  readonly kind: DatabaseConfig['kind'];
  /** The connection string, for dialect pieces that need their own connection (LISTEN). */
  readonly url: string;
  close(): Promise<void>;
}

/** `walCheckpoints`: the log's sizes and timer for an embedded file (tests; the defaults otherwise). */
export function openDatabase(config: DatabaseConfig, options: { readonly walCheckpoints?: WalCheckpointOptions } = {}): Database {
  if (config.kind === 'sqlite') {
    if (config.path !== ':memory:') mkdirSync(dirname(config.path), { recursive: true });
    const sqlite = new SqliteDatabase(config.path);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    // Several processes (serve + worker) may share the file: wait for locks instead of failing.
    sqlite.pragma('busy_timeout = 5000');
    const db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: cachingStatements(sqlite) }) });
    // Past the log's cap the checkpoint worker drains it while this connection is held:
    // the other queries wait for it in Kysely's queue, the event loop does not (decision 0116).
    const holdWrites = (during: () => Promise<void>) => db.connection().execute(() => during());
    const checkpoints = config.path === ':memory:' ? undefined : checkpointOffTheMainThread(sqlite, config.path, Object.assign({}, options.walCheckpoints, { holdWrites }));
    const close = async () => {
      await checkpoints?.stop();
      await db.destroy();
    };
    return { db, kind: 'sqlite', url: config.url, close };
  }
  // With the server unreachable a request fails within the connect timeout (answered
  // 503) instead of waiting for ever on a pool slot.
  const pool = new (pgModule().Pool)({ connectionString: config.url, max: 10, connectionTimeoutMillis: 5_000, keepAlive: true });
  // An idle client's error (the server restarted) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // A checked-out client between queries has no error listener of the pool's; a dropped
  // connection then would be an unhandled 'error' event. The next query reports it instead.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: 'postgres', url: config.url, close: () => db.destroy() };
}
