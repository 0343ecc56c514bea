/**
 * Key lookups that arrive together share one query (docs/decisions/0032). With many keys
 * each used less often than the key cache lives (thousands of rate-limited users), every
 * request misses the cache; one `key_hash in (…)` for the keys of the requests that
 * arrived during the previous lookups costs the database one statement and the process
 * one round trip instead of one each.
 *
 * A lookup starts at once while fewer than MAX_IN_FLIGHT are running, so an idle service
 * adds no wait; only when all are busy do new keys queue, and they go together in the
 * next lookup to start. Each caller gets what its own key's row said at the time of the
 * query that read it, as with a lookup of its own.
 */
import type { Db } from '../db/database.js';
import { findActiveKeys } from './keys.js';
import type { User } from './users.js';

/** Like the charges' group commit on PostgreSQL: enough to keep a few connections busy. */
const MAX_IN_FLIGHT = 4;
/** Bounds the statement's parameter list (and, on SQLite, the distinct texts cached). */
const MAX_BATCH = 64;

interface Waiter {
  readonly resolve: (user: User | undefined) => void;
  readonly reject: (error: unknown) => void;
}

export class KeyLookups {
  private readonly queued = new Map<string, Waiter[]>();
  private inFlight = 0;
  /** Queries run so far, for tests that check lookups were shared. */
  queryCount = 0;

  constructor(private readonly db: Db) {}

  /** The active key's owner by its hash, or undefined for an unknown or revoked key. */
  find(hash: string): Promise<User | undefined> {
    return new Promise((resolve, reject) => {
      const waiters = this.queued.get(hash);
      if (waiters) waiters.push({ resolve, reject });
      else this.queued.set(hash, [{ resolve, reject }]);
      this.startLookups();
    });
  }

  private startLookups(): void {
    while (this.inFlight < MAX_IN_FLIGHT && this.queued.size > 0) {
      const batch = new Map<string, Waiter[]>();
      for (const [hash, waiters] of this.queued) {
        batch.set(hash, waiters);
        this.queued.delete(hash);
        if (batch.size >= MAX_BATCH) break;
      }
      this.inFlight += 1;
      this.queryCount += 1;
      findActiveKeys(this.db, [...batch.keys()])
        .then(
          (found) => {
            for (const [hash, waiters] of batch) for (const waiter of waiters) waiter.resolve(found.get(hash));
          },
          (error: unknown) => {
            for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
          },
        )
        .finally(() => {
          this.inFlight -= 1;
          this.startLookups();
        });
    }
  }
}
