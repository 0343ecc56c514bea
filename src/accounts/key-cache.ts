/**
 * Authentication without a database read per request (docs/keys.md): a key's owner is
 * kept in the process's ValidatedCache (cache/validated-cache.ts) until keys or users
 * change — PostgreSQL notifies, SQLite's data_version moves, or this process changed
 * them — and at most WATCHED_TTL_MS; while changes cannot be heard, KEY_CACHE_TTL_MS.
 * Either way a revoked or rotated key, or a changed tier, takes effect within a second in
 * every process.
 *
 * Only found, active keys are kept (an unknown or revoked key is looked up every time,
 * so a flood of made-up keys cannot fill the cache), at most MAX_KEYS of them; requests
 * that miss together share one statement (keyLookups), and requests with the same key
 * share one lookup while it runs.
 */
import type { ChangeFeed } from '../cache/change-feed.js';
import { ValidatedCache, type ReadStart } from '../cache/validated-cache.js';
import type { Db } from '../db/database.js';
import { SharedReads } from '../db/shared-reads.js';
import { findActiveKeys, hashKey } from './keys.js';
import type { User } from './users.js';

/** Without a change feed: well inside the 1 s allowed, leaving room for the lookup itself. */
export const KEY_CACHE_TTL_MS = 500;
/** With a change feed: only a safety net, should a change ever go unheard (the longest life). */
export const WATCHED_TTL_MS = 30_000;
export const MAX_KEYS = 10_000;
/** Keys in one lookup or renewal statement: bounds its parameters (and, on SQLite, the distinct texts cached). */
const LOOKUP_BATCH = 64;

/**
 * Key lookups that arrive together share one query (docs/decisions/0032): with many keys
 * each used less often than the cache keeps them, one `key_hash in (…)` for the keys of
 * the requests that arrived during the previous lookups costs one statement and one round
 * trip instead of one each. Four in flight, as the group commit on PostgreSQL.
 */
export function keyLookups(db: Db): SharedReads<User> {
  return new SharedReads((hashes) => findActiveKeys(db, hashes), { maxInFlight: 4, maxBatch: LOOKUP_BATCH });
}

interface Lookup {
  readonly start: ReadStart;
  readonly user: Promise<User | undefined>;
}

export class KeyCache {
  /** Misses that arrive together are read in one query. */
  readonly lookups: SharedReads<User>;
  private readonly users: ValidatedCache<User>;
  /** Lookups running now, by key hash: joined by requests that start at the same generation. */
  private readonly running = new Map<string, Lookup>();

  constructor(db: Db, parts: { readonly feed: ChangeFeed; readonly clock: () => number }) {
    this.lookups = keyLookups(db);
    this.users = new ValidatedCache<User>({
      feed: parts.feed,
      clock: parts.clock,
      heardLifeMs: WATCHED_TTL_MS,
      unheardLifeMs: KEY_CACHE_TTL_MS,
      max: MAX_KEYS,
      renew: (hashes) => findActiveKeys(db, hashes),
      renewBatch: LOOKUP_BATCH,
    });
  }

  /** Renewal reads run so far, for tests. */
  get renewalCount(): number {
    return this.users.renewalCount;
  }

  /** The active key's owner, or undefined for an unknown or revoked key. */
  authenticate(presentedKey: string): Promise<User | undefined> {
    // The hash, not the key, is what stays in memory.
    const hash = hashKey(presentedKey);
    const kept = this.users.get(hash);
    if (kept !== undefined) return Promise.resolve(kept);
    const start = this.users.readStart();
    const running = this.running.get(hash);
    // A lookup begun before a change was heard may predate it: not joined.
    if (running !== undefined && running.start.generation === start.generation) return running.user;
    const lookup: Lookup = { start, user: this.lookups.find(hash) };
    this.running.set(hash, lookup);
    const settled = (): void => {
      if (this.running.get(hash) === lookup) this.running.delete(hash);
    };
    lookup.user.then((user) => {
      settled();
      if (user) this.users.set(hash, user, start);
    }, settled);
    return lookup.user;
  }

  close(): void {
    this.users.close();
    this.running.clear();
  }
}
