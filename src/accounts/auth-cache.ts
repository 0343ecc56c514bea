/**
 * Authentication without a database read per request (docs/decisions/0024): a key's
 * owner is remembered for at most KEY_CACHE_TTL_MS after it was read. A revoked or
 * rotated key, or a changed tier, therefore takes effect within that time in every
 * process — also when it was changed by another process (`translate-service keys
 * revoke` while a server runs) — on either backend, with nothing to listen to.
 *
 * Only found, active keys are remembered (an unknown or revoked key is looked up every
 * time, so a flood of made-up keys cannot fill the cache), at most MAX_KEYS of them,
 * and concurrent requests with the same key share one lookup.
 */
import type { Db } from '../db/database.js';
import { KeyLookups } from './key-lookups.js';
import { hashKey } from './keys.js';
import type { User } from './users.js';

/** Well inside the 1 s the issue allows, leaving room for the lookup itself. */
export const KEY_CACHE_TTL_MS = 500;
export const MAX_KEYS = 10_000;

interface Entry {
  readonly user: Promise<User | undefined>;
  readonly readAt: number;
}

export class AuthCache {
  private readonly entries = new Map<string, Entry>();
  /** Misses that arrive together are read in one query (key-lookups.ts). */
  readonly lookups: KeyLookups;

  constructor(
    db: Db,
    private readonly ttlMs = KEY_CACHE_TTL_MS,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.lookups = new KeyLookups(db);
  }

  /** The active key's owner, or undefined for an unknown or revoked key. */
  async authenticate(presentedKey: string): Promise<User | undefined> {
    // The hash, not the key, is what stays in memory.
    const hash = hashKey(presentedKey);
    const now = this.clock();
    const entry = this.entries.get(hash);
    if (entry && now - entry.readAt < this.ttlMs) return entry.user;
    const user = this.lookups.find(hash);
    const fresh = { user, readAt: now };
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

  private evictExpired(now: number): void {
    for (const [hash, entry] of this.entries) {
      if (now - entry.readAt >= this.ttlMs) this.entries.delete(hash);
    }
    // All still fresh: drop the oldest (Map keeps insertion order).
    while (this.entries.size >= MAX_KEYS) this.entries.delete(this.entries.keys().next().value!);
  }
}

const perDatabase = new WeakMap<Db, AuthCache>();

/** The key cache of `db` (one per database handle, made on first use). */
export function authCacheOf(db: Db): AuthCache {
  let cache = perDatabase.get(db);
  if (!cache) {
    cache = new AuthCache(db);
    perDatabase.set(db, cache);
  }
  return cache;
}
