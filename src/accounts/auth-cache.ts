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
 * With a change feed, an entry past its life answers the next request once more while
 * it is read again (see `renewable`), and each entry's life is drawn between half of
 * WATCHED_TTL_MS and all of it: keys first seen together (a start under load) would
 * otherwise all be read again in the same second 30 s later, with every request of those
 * keys waiting for the reads (p99 at 11,000 req/s on PostgreSQL 74–235 ms for ~4 s every
 * 30 s with 8,000 keys in turn; decision 0048).
 *
 * Only found, active keys are remembered (an unknown or revoked key is looked up every
 * time, so a flood of made-up keys cannot fill the cache), at most MAX_KEYS of them,
 * and concurrent requests with the same key share one lookup.
 */
import { BackgroundRenewal } from '../db/background-renewal.js';
import type { Db } from '../db/database.js';
import { perDatabase } from '../db/per-database.js';
import { spreadLife } from '../db/spread-life.js';
import { keyChangesOf, type KeyChanges } from './key-changes.js';
import { KeyLookups, MAX_BATCH as KEY_LOOKUP_BATCH } from './key-lookups.js';
import { findActiveKeys, hashKey } from './keys.js';
import type { User } from './users.js';

/** Without a change feed: well inside the 1 s allowed, leaving room for the lookup itself. */
export const KEY_CACHE_TTL_MS = 500;
/** With a change feed: only a safety net, should a change ever go unheard (the longest life; see above). */
export const WATCHED_TTL_MS = 30_000;
export const MAX_KEYS = 10_000;

interface Entry {
  readonly user: Promise<User | undefined>;
  readonly readAt: number;
  /** KeyChanges.generation when the read started: a change heard since makes it stale. */
  readonly generation: number;
  /** How long it is kept while changes are heard: between half of WATCHED_TTL_MS and all of it. */
  readonly watchedLifeMs: number;
}

export class AuthCache {
  private readonly entries = new Map<string, Entry>();
  /** Misses that arrive together are read in one query (key-lookups.ts). */
  readonly lookups: KeyLookups;
  /** Entries past their life, read again while they answer: the marked entry of each key. */
  private readonly renewing = new Map<string, Entry>();
  private readonly renewal: BackgroundRenewal<User>;

  constructor(
    db: Db,
    private readonly ttlMs = KEY_CACHE_TTL_MS,
    private readonly clock: () => number = () => performance.now(),
    private readonly changes: KeyChanges = keyChangesOf(db),
  ) {
    this.lookups = new KeyLookups(db);
    this.renewal = new BackgroundRenewal(
      {
        read: (hashes) => findActiveKeys(db, hashes),
        renewed: (hash, user) => this.renewed(hash, user),
        failed: (hash) => this.renewed(hash, undefined),
      },
      // As many keys in one renewal statement as in a shared lookup's.
      KEY_LOOKUP_BATCH,
    );
  }

  /** Renewal reads run so far, for tests. */
  get renewalCount(): number {
    return this.renewal.readCount;
  }

  /** The active key's owner, or undefined for an unknown or revoked key. */
  async authenticate(presentedKey: string): Promise<User | undefined> {
    // The hash, not the key, is what stays in memory.
    const hash = hashKey(presentedKey);
    const now = this.clock();
    const entry = this.entries.get(hash);
    if (entry && this.fresh(entry, now)) return entry.user;
    if (entry && this.renewable(entry, now)) {
      this.renew(hash, entry, now);
      return entry.user;
    }
    return this.read(hash, now);
  }

  /**
   * Reads a renewable entry again while it keeps answering (db/background-renewal.ts): it
   * is marked as read now, so one read renews it, and replaced by what the read finds —
   * dropped if the key is gone or the read failed, so the next request reads for itself.
   * If a change is heard meanwhile the marked entry is stale by its generation and a
   * request reads for itself; the renewal's answer is then not kept.
   */
  private renew(hash: string, stale: Entry, now: number): void {
    const marked: Entry = { user: stale.user, readAt: now, generation: stale.generation, watchedLifeMs: stale.watchedLifeMs };
    this.entries.set(hash, marked);
    this.renewing.set(hash, marked);
    this.renewal.add(hash);
  }

  private renewed(hash: string, user: User | undefined): void {
    const marked = this.renewing.get(hash);
    this.renewing.delete(hash);
    if (marked === undefined || this.entries.get(hash) !== marked) return;
    // Dated as the mark: the read began after it, so nothing is trusted longer than it should be.
    if (user) this.entries.set(hash, { user: Promise.resolve(user), readAt: marked.readAt, generation: marked.generation, watchedLifeMs: spreadLife(WATCHED_TTL_MS) });
    else this.entries.delete(hash);
  }

  private async read(hash: string, now: number): Promise<User | undefined> {
    const generation = this.changes.generation;
    const user = this.lookups.find(hash);
    const fresh = { user, readAt: now, generation, watchedLifeMs: spreadLife(WATCHED_TTL_MS) };
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
    return now - entry.readAt < (this.changes.watching ? entry.watchedLifeMs : this.ttlMs);
  }

  /**
   * Whether an entry past its watched life may answer once more while it is read again:
   * nothing has been heard against it (the feed is heard and no change came since it was
   * read), and it is younger than twice its life. WATCHED_TTL_MS only guards against a
   * change that went unheard, and one more answer while the read runs does not weaken
   * that; a request waiting for the read did (every request of a key whose entry expired).
   */
  private renewable(entry: Entry, now: number): boolean {
    return this.changes.watching && entry.generation === this.changes.generation && now - entry.readAt < 2 * entry.watchedLifeMs;
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
