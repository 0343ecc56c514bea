/**
 * Hearing key and user changes, and deleted memory, from the database (docs/decisions/0039,
 * 0042): a LISTEN on PostgreSQL, `PRAGMA data_version` read every POLL_MS on SQLite. What
 * is heard goes to the process's KeyChanges (key-changes.ts), which the key cache and the
 * recent memory entries consult.
 */
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Database, Db } from '../db/database.js';
import { KEY_CHANGES_CHANNEL } from '../db/migrations/005-key-change-notifications.js';
import { NotificationListener } from '../db/notifications.js';
import { keyChangesOf, type KeyChanges } from './key-changes.js';

/** How often a SQLite server reads data_version: well inside the 1 s a revocation may take. */
export const POLL_MS = 100;
/** How often the LISTEN connection must answer; silent for two periods, it is not trusted. */
export const HEARTBEAT_MS = 250;

export interface KeyChangeWatch {
  close(): Promise<void>;
}

/** Starts hearing changes for `database` (a server does, for its key cache); close() stops. */
export async function watchKeyChanges(database: Database, logger?: Logger): Promise<KeyChangeWatch> {
  const changes = keyChangesOf(database.db);
  if (database.kind === 'postgres') return listenForChanges(database, changes, logger);
  return pollDataVersion(database.db, changes);
}

async function listenForChanges(database: Database, changes: KeyChanges, logger: Logger | undefined): Promise<KeyChangeWatch> {
  const listener = new NotificationListener({
    url: database.url,
    channel: KEY_CHANGES_CHANNEL,
    what: 'key-change notifications',
    meanwhile: 'keys are cached for half a second only, memory entries for a second',
    keepsProcessAlive: false,
    // A dead connection that says nothing is noticed within ~0.5 s: the short TTL then applies.
    heartbeatMs: HEARTBEAT_MS,
    ...(logger ? { logger } : {}),
  });
  // Called on every notification and after every (re)connect; `listening` tells which.
  const onNotification = (): void => {
    changes.changed();
    changes.setWatching(listener.listening);
  };
  const unsubscribe = await listener.add(onNotification);
  // A dropped connection calls nobody: look at it often, so the short TTL applies at once.
  const check = setInterval(() => changes.setWatching(listener.listening), POLL_MS).unref();
  changes.setWatching(listener.listening);
  return {
    async close() {
      clearInterval(check);
      changes.setWatching(false);
      await unsubscribe();
    },
  };
}

function pollDataVersion(db: Db, changes: KeyChanges): KeyChangeWatch {
  let last: number | undefined;
  let polling: Promise<void> | undefined;
  const poll = async (): Promise<void> => {
    try {
      const { rows } = await sql<{ data_version: number }>`pragma data_version`.execute(db);
      const version = Number(rows[0]?.data_version);
      if (last !== undefined && version !== last) changes.changed();
      last = version;
      changes.setWatching(true);
    } catch {
      changes.setWatching(false);
    }
  };
  const timer = setInterval(() => {
    polling ??= poll().finally(() => {
      polling = undefined;
    });
  }, POLL_MS).unref();
  polling = poll().finally(() => {
    polling = undefined;
  });
  return {
    async close() {
      clearInterval(timer);
      await polling;
      changes.setWatching(false);
    },
  };
}
