/**
 * Entries read or saved lately, kept in this process (decisions 0037, 0042): the same
 * segment asked for again and again — a popular UI string, a retried request, one
 * sentence into many targets one request after another — is answered without a
 * statement. A read took ~17 µs of SQLite under load and a round trip on PostgreSQL.
 *
 * How long an entry is kept, and why that is allowed:
 * - An entry is immutable for its key (the key holds everything that shaped it), except
 *   that a later save replaces it; saves go through here too. What keeping can serve late
 *   is an entry another process deleted (DELETE /v1/memory, the expiry sweep).
 * - DELETE /v1/memory forgets the user's entries in the process that answers it at once.
 * - Other processes' deletions are heard through the database's change feed when this
 *   process hears one (`follow`: a server's, accounts/key-changes.ts, which migration 006
 *   makes hear memory deletions too). An entry is then served while no change has been
 *   heard since it was read — a change, of any kind, sends it back to the rule below. Past
 *   its life (drawn between half of WATCHED_ENTRY_MS and all of it) it answers while it
 *   is read again (user-memory.ts), so no request waits for that read, and entries read
 *   together are not read again together (decision 0048); it is dropped at twice its
 *   life. Without a feed heard (a worker process, the LISTEN connection down, a failed
 *   poll) an entry is kept RECENT_ENTRY_MS. Either way a deletion elsewhere stops being
 *   served within RECENT_ENTRY_MS (docs/memory.md).
 * - Bounded: MAX_ENTRIES entries, translations up to LONGEST_CHARS, MAX_TOTAL_CHARS in
 *   all (~3–6 MB), least recently used out. Enough for one entry each of 8,000 users
 *   taking turns (decision 0048): an LRU cache smaller than the users who take turns
 *   finds nothing, and at 4,096 every request of 8,000 rotating keys read PostgreSQL
 *   (63–65 instead of 43–44 µs of CPU a request).
 */
import { LRUCache } from 'lru-cache';
import { perDatabase } from '../db/per-database.js';
import { spreadLife } from '../db/spread-life.js';

export const RECENT_ENTRY_MS = 1_000;
/**
 * An entry's longest life while the change feed is heard and silent (as keys', decision
 * 0039); each entry's is drawn between half of it and all of it, so entries read together
 * are not read again together (db/spread-life.ts).
 */
export const WATCHED_ENTRY_MS = 30_000;
const MAX_ENTRIES = 16_384;
const LONGEST_CHARS = 512;
const MAX_TOTAL_CHARS = 3_000_000;

/** What tells this process that rows may have been deleted elsewhere (accounts/key-changes.ts, wired by services.ts). */
export interface ChangeFeed {
  /** Grows with every change heard. */
  readonly generation: number;
  /** Whether changes in other processes are heard now. */
  readonly watching: boolean;
}

const NOTHING_HEARD: ChangeFeed = { generation: 0, watching: false };

export interface Kept {
  readonly translation: string;
  /** The feed's generation when the read or save that gave it started. */
  readonly generation: number;
  /** The clock's time when it was kept. */
  readonly at: number;
  /** How long it may be served while the feed is heard and silent (spreadLife of WATCHED_ENTRY_MS). */
  readonly lifeMs: number;
}

export class RecentEntries {
  #feed: ChangeFeed = NOTHING_HEARD;
  private readonly entries = new LRUCache<string, Kept>({
    max: MAX_ENTRIES,
    maxSize: MAX_TOTAL_CHARS,
    sizeCalculation: (kept, entry) => kept.translation.length + entry.length,
  });
  /** Entries being read again: the marked entry of each (see `renewing`). */
  private readonly marked = new Map<string, Kept>();

  /** `clock` (ms, only differences count) is for tests; the service's is performance.now. */
  constructor(private readonly clock: () => number = () => performance.now()) {}

  /** Hears other processes' deletions through `feed` from now on. */
  follow(feed: ChangeFeed): void {
    this.#feed = feed;
  }

  /** The feed's generation now: taken before a read or save whose entries will be remembered. */
  get generation(): number {
    return this.#feed.generation;
  }

  /**
   * What is kept for `entry` (a userEntry), if it may still be served: within
   * RECENT_ENTRY_MS of being kept, or while the feed is heard and silent, up to twice its
   * life — past its life it should be read again (`isDue`, `renewing`) while it answers.
   */
  get(entry: string): Kept | undefined {
    const kept = this.entries.get(entry);
    if (kept === undefined) return undefined;
    const age = this.clock() - kept.at;
    const feed = this.#feed;
    if (age <= RECENT_ENTRY_MS || (feed.watching && kept.generation === feed.generation && age < 2 * kept.lifeMs)) return kept;
    this.entries.delete(entry);
    return undefined;
  }

  /** Whether `kept` is past its life: to be read again, as the entries of keys are (accounts/auth-cache.ts). */
  isDue(kept: Kept): boolean {
    return this.clock() - kept.at >= kept.lifeMs;
  }

  /**
   * Marks `entry` as being read again (user-memory.ts): it answers meanwhile, dated now so
   * that one read renews it, until `renewed` hands over what the read found.
   */
  renewing(entry: string, kept: Kept): void {
    const marked: Kept = { translation: kept.translation, generation: kept.generation, at: this.clock(), lifeMs: kept.lifeMs };
    this.entries.set(entry, marked);
    this.marked.set(entry, marked);
  }

  /**
   * What reading `entry` again found (undefined: the row is gone, or the read failed).
   * Kept dated as the mark, at the generation it was served at — unless the entry was
   * replaced or dropped meanwhile; dropped if nothing was found, so the next request reads
   * for itself.
   */
  renewed(entry: string, translation: string | undefined): void {
    const marked = this.marked.get(entry);
    this.marked.delete(entry);
    if (marked === undefined || this.entries.peek(entry) !== marked) return;
    if (translation === undefined) this.entries.delete(entry);
    else this.entries.set(entry, { translation, generation: marked.generation, at: marked.at, lifeMs: spreadLife(WATCHED_ENTRY_MS) });
  }

  /** Keeps what a read or save begun at `generation` (see `generation`) found for `entry`. */
  remember(entry: string, translation: string, generation: number): void {
    if (translation.length <= LONGEST_CHARS) {
      this.entries.set(entry, { translation, generation, at: this.clock(), lifeMs: spreadLife(WATCHED_ENTRY_MS) });
    }
  }

  /** Drops every entry (after the expiry sweep deleted rows: none of them is served again). */
  clear(): void {
    this.entries.clear();
  }

  /** Drops every entry of the user (its entries' names start with `userId` and NUL). */
  forgetUser(userId: string): void {
    const prefix = `${userId}\u0000`;
    for (const entry of [...this.entries.keys()]) if (entry.startsWith(prefix)) this.entries.delete(entry);
  }
}

/** The recent entries of `db` (one per database handle, made on first use). */
export const recentEntriesOf = perDatabase(() => new RecentEntries());
