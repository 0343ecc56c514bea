/**
 * Key lookups that arrive together share one query (docs/decisions/0032). With many keys
 * each used less often than the key cache lives (thousands of rate-limited users), every
 * request misses the cache; one `key_hash in (…)` for the keys of the requests that
 * arrived during the previous lookups costs the database one statement and the process
 * one round trip instead of one each (db/shared-reads.ts).
 */
import type { Db } from '../db/database.js';
import { SharedReads } from '../db/shared-reads.js';
import { findActiveKeys } from './keys.js';
import type { User } from './users.js';

/** Like the charges' group commit on PostgreSQL: enough to keep a few connections busy. */
const MAX_IN_FLIGHT = 4;
/** Bounds the statement's parameter list (and, on SQLite, the distinct texts cached). */
export const MAX_BATCH = 64;

export class KeyLookups {
  private readonly reads: SharedReads<User>;

  constructor(db: Db) {
    this.reads = new SharedReads((hashes) => findActiveKeys(db, hashes), { maxInFlight: MAX_IN_FLIGHT, maxBatch: MAX_BATCH });
  }

  /** Queries run so far, for tests that check lookups were shared. */
  get queryCount(): number {
    return this.reads.queryCount;
  }

  /** The active key's owner by its hash, or undefined for an unknown or revoked key. */
  find(hash: string): Promise<User | undefined> {
    return this.reads.find(hash);
  }
}
