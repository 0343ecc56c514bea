/**
 * Authentication without a database read per request (docs/decisions/0024, 0039): a key's
 * owner is remembered until keys or users change (key-changes.ts: PostgreSQL notifies,
 * SQLite's data_version moves, or this process changed them), and at most
 * WATCHED_TTL_MS. While changes cannot be heard (the LISTEN connection is down, the
 * server has not started watching) a key is remembered for KEY_CACHE_TTL_MS only, with
 * nothing to listen to. Either way a revoked or rotated key, or a changed tier, takes
 * effect within a second in every process — also when another process changed it
 * (`translate-service keys revoke` while a server runs).
 *
 * Only found, active keys are remembered (an unknown or revoked key is looked up every
 * time, so a flood of made-up keys cannot fill the cache), at most MAX_KEYS of them,
 * and concurrent requests with the same key share one lookup.
 */
import type { Db } from '../db/database.js';
import { perDatabase } from '../db/per-database.js';
import { keyChangesOf, type KeyChanges } from './key-changes.js';
import { KeyLookups } from './key-lookups.js';
import { hashKey } from './keys.js';
import type { User } from './users.js';

/** Without a change feed: well inside the 1 s allowed, leaving room for the lookup itself. */
export const KEY_CACHE_TTL_MS = 500;
/** With a change feed: only a safety net, should a change ever go unheard. */
export const WATCHED_TTL_MS = 30_000;
export const MAX_KEYS = 10_000;

interface Entry {
  readonly user: Promise<User | undefined>;
  readonly readAt: number;
  /** KeyChanges.generation when the read started: a change heard since makes it stale. */
  readonly generation: number;
}

export class AuthCache {
  private readonly entries = new Map<string, Entry>();
  /** Misses that arrive together are read in one query (key-lookups.ts). */
  readonly lookups: KeyLookups;

  constructor(
    db: Db,
    private readonly ttlMs = KEY_CACHE_TTL_MS,
    private readonly clock: () => number = () => performance.now(),
    private readonly changes: KeyChanges = keyChangesOf(db),
  ) {
    this.lookups = new KeyLookups(db);
  }

  /** The active key's owner, or undefined for an unknown or revoked key. */
  async authenticate(presentedKey: string): Promise<User | undefined> {
    // The hash, not the key, is what stays in memory.
    const hash = hashKey(presentedKey);
    const now = this.clock();
    const entry = this.entries.get(hash);
    if (entry && this.fresh(entry, now)) return entry.user;
    const generation = this.changes.generation;
    const user = this.lookups.find(hash);
    const fresh = { user, readAt: now, generation };
    this.entries.delete(hash);
    if (this.entries.size >= MAX_KEYS) this.evictExpired(now);
    this.entries.set(hash, fresh);
    try {
      const found = await user;
      if (!found && this.entries.get(hash) === fresh) this.entries.delete(hash);
      return found;
    } catch (error) {
      if (this.entries.get(hash) === fresh) this.entries.delete(hash);
      throw error;
    }
  }

  private fresh(entry: Entry, now: number): boolean {
    if (entry.generation !== this.changes.generation) return false;
    return now - entry.readAt < (this.changes.watching ? WATCHED_TTL_MS : this.ttlMs);
  }

  private evictExpired(now: number): void {
    for (const [hash, entry] of this.entries) {
      if (!this.fresh(entry, now)) this.entries.delete(hash);
    }
    // All still fresh: drop the oldest (Map keeps insertion order).
    while (this.entries.size >= MAX_KEYS) this.entries.delete(this.entries.keys().next().value!);
  }
}

/** The key cache of `db` (one per database handle, made on first use). */
export const authCacheOf = perDatabase((db) => new AuthCache(db));
