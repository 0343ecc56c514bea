/**
 * Hearing changed keys and users, and deleted memory, from the database (docs/caches.md):
 * a LISTEN on PostgreSQL, `PRAGMA data_version` read every POLL_MS on SQLite. What is
 * heard goes to the process's ChangeFeed (change-feed.ts), which the caches consult.
 * Started by the composition root (services.ts) for every process that caches, API or
 * worker alike.
 */
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Database, Db } from '../db/database.js';
import { ACCOUNT_AND_MEMORY_CHANGES } from '../db/migrations/010-account-and-memory-changes.js';
import { NotificationListener } from '../db/notifications.js';
import type { ChangeFeed } from './change-feed.js';

/** How often a SQLite process reads data_version: well inside the 1 s a revocation may take. */
export const POLL_MS = 100;
/** How often the LISTEN connection must answer; silent for two periods, it is not trusted. */
export const HEARTBEAT_MS = 250;

export interface ChangeWatch {
  close(): Promise<void>;
}

/** Starts hearing changes to `database` into `feed`; close() stops (the feed is then not trusted). */
export async function watchChanges(database: Database, feed: ChangeFeed, logger?: Logger): Promise<ChangeWatch> {
  if (database.kind === 'postgres') return listenForChanges(database, feed, logger);
  return pollDataVersion(database.db, feed);
}

async function listenForChanges(database: Database, feed: ChangeFeed, logger: Logger | undefined): Promise<ChangeWatch> {
  const listener = new NotificationListener({
    url: database.url,
    channel: ACCOUNT_AND_MEMORY_CHANGES,
    what: 'key and memory change notifications',
    meanwhile: 'keys are cached for half a second only, memory entries for a second',
    keepsProcessAlive: false,
    // A dead connection that says nothing is noticed within ~0.5 s: the short life then applies.
    heartbeatMs: HEARTBEAT_MS,
    ...(logger ? { logger } : {}),
  });
  // Called on every notification and after every (re)connect; `listening` tells which.
  const onNotification = (): void => {
    feed.changed();
    feed.setWatching(listener.listening);
  };
  const unsubscribe = await listener.add(onNotification);
  // A dropped connection calls nobody: look at it often, so the short life applies at once.
  const check = setInterval(() => feed.setWatching(listener.listening), POLL_MS).unref();
  feed.setWatching(listener.listening);
  return {
    async close() {
      clearInterval(check);
      feed.setWatching(false);
      await unsubscribe();
    },
  };
}

function pollDataVersion(db: Db, feed: ChangeFeed): ChangeWatch {
  let last: number | undefined;
  let polling: Promise<void> | undefined;
  let closed = false;
  const poll = async (): Promise<void> => {
    try {
      const { rows } = await sql<{ data_version: number }>`pragma data_version`.execute(db);
      const version = Number(rows[0]?.data_version);
      if (last !== undefined && version !== last) feed.changed();
      last = version;
      if (!closed) feed.setWatching(true);
    } catch {
      feed.setWatching(false);
    }
  };
  const pollOnce = (): void => {
    polling ??= poll().finally(() => {
      polling = undefined;
    });
  };
  const timer = setInterval(pollOnce, POLL_MS).unref();
  pollOnce();
  return {
    async close() {
      closed = true;
      clearInterval(timer);
      await polling;
      feed.setWatching(false);
    },
  };
}
