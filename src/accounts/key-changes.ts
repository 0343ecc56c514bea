/**
 * Whether the keys and users this process has cached may have changed — here or in any
 * other process — as the database itself tells it (docs/decisions/0039):
 *
 * - PostgreSQL: every statement that changes `api_keys` or `users` notifies
 *   KEY_CHANGES_CHANNEL at commit (triggers of migration 005); a LISTEN connection hears it
 *   within milliseconds.
 * - SQLite: `PRAGMA data_version` changes whenever another connection — another process:
 *   `translate-service keys revoke`, a worker — commits; it is read every POLL_MS.
 * - Changes made through this process's own connection (revokeKey, rotateKey, setTier)
 *   call `changed()` directly, since SQLite does not count them.
 *
 * `generation` grows with every change heard. `watching` is false while the feed cannot
 * be trusted (the LISTEN connection is down, a poll failed, not started yet): the key
 * cache then keeps keys only for its short TTL, as it did before this existed. A feed
 * that comes back counts as a change, since it may have missed one.
 */
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Database, Db } from '../db/database.js';
import { KEY_CHANGES_CHANNEL } from '../db/migrations/005-key-change-notifications.js';
import { NotificationListener } from '../db/notifications.js';

/** How often a SQLite server reads data_version: well inside the 1 s a revocation may take. */
export const POLL_MS = 100;

export class KeyChanges {
  #generation = 0;
  #watching = false;

  /** Grows with every change heard; a cached key read at an older generation is stale. */
  get generation(): number {
    return this.#generation;
  }

  /** Whether changes in other processes are heard now. */
  get watching(): boolean {
    return this.#watching;
  }

  /** Something about keys or users changed (or may have, unheard). */
  changed(): void {
    this.#generation += 1;
  }

  /** For watchers: the feed became trustworthy (counted as a change) or stopped being so. */
  setWatching(watching: boolean): void {
    if (watching && !this.#watching) this.changed();
    this.#watching = watching;
  }
}

const perDatabase = new WeakMap<Db, KeyChanges>();

/** The key changes of `db` (one per database handle, made on first use). */
export function keyChangesOf(db: Db): KeyChanges {
  let changes = perDatabase.get(db);
  if (!changes) perDatabase.set(db, (changes = new KeyChanges()));
  return changes;
}

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
    meanwhile: 'keys are cached for half a second only',
    keepsProcessAlive: false,
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
