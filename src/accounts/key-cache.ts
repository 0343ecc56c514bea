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
 * that miss together share one statement (key-lookups.ts), and requests with the same key
 * share one lookup while it runs.
 */
import type { ChangeFeed } from '../cache/change-feed.js';
import { ValidatedCache, type ReadStart } from '../cache/validated-cache.js';
import type { Db } from '../db/database.js';
import { KeyLookups, MAX_BATCH as KEY_LOOKUP_BATCH } from './key-lookups.js';
import { findActiveKeys, hashKey } from './keys.js';
import type { User } from './users.js';

/** Without a change feed: well inside the 1 s allowed, leaving room for the lookup itself. */
export const KEY_CACHE_TTL_MS = 500;
/** With a change feed: only a safety net, should a change ever go unheard (the longest life). */
export const WATCHED_TTL_MS = 30_000;
export const MAX_KEYS = 10_000;

interface Lookup {
  readonly start: ReadStart;
  readonly user: Promise<User | undefined>;
}

export class KeyCache {
  /** Misses that arrive together are read in one query (key-lookups.ts). */
  readonly lookups: KeyLookups;
  private readonly users: ValidatedCache<User>;
  /** Lookups running now, by key hash: joined by requests that start at the same generation. */
  private readonly running = new Map<string, Lookup>();

  constructor(db: Db, parts: { readonly feed: ChangeFeed; readonly clock: () => number }) {
    this.lookups = new KeyLookups(db);
    this.users = new ValidatedCache<User>({
      feed: parts.feed,
      clock: parts.clock,
      heardLifeMs: WATCHED_TTL_MS,
      unheardLifeMs: KEY_CACHE_TTL_MS,
      max: MAX_KEYS,
      renew: (hashes) => findActiveKeys(db, hashes),
      // As many keys in one renewal statement as in a shared lookup's.
      renewBatch: KEY_LOOKUP_BATCH,
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
