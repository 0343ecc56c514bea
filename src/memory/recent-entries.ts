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
 *   makes hear memory deletions too). An entry is then kept up to WATCHED_ENTRY_MS while
 *   no change has been heard since it was read — a change, of any kind, sends it back to
 *   the rule below. Without a feed heard (a worker process, the LISTEN connection down, a
 *   failed poll) an entry is kept RECENT_ENTRY_MS. Either way a deletion elsewhere stops
 *   being served within RECENT_ENTRY_MS (docs/memory.md).
 * - Bounded: MAX_ENTRIES entries, translations up to LONGEST_CHARS, MAX_TOTAL_CHARS in
 *   all (~2 MB), least recently used out.
 */
import { LRUCache } from 'lru-cache';
import { perDatabase } from '../db/per-database.js';

export const RECENT_ENTRY_MS = 1_000;
/** An entry's longest life while the change feed is heard and silent (as keys', decision 0039). */
export const WATCHED_ENTRY_MS = 30_000;
const MAX_ENTRIES = 4_096;
const LONGEST_CHARS = 512;
const MAX_TOTAL_CHARS = 1_000_000;

/** What tells this process that rows may have been deleted elsewhere (accounts/key-changes.ts, wired by services.ts). */
export interface ChangeFeed {
  /** Grows with every change heard. */
  readonly generation: number;
  /** Whether changes in other processes are heard now. */
  readonly watching: boolean;
}

const NOTHING_HEARD: ChangeFeed = { generation: 0, watching: false };

interface Kept {
  readonly translation: string;
  /** The feed's generation when the read or save that gave it started. */
  readonly generation: number;
  /** performance.now() when it was kept. */
  readonly at: number;
}

export class RecentEntries {
  #feed: ChangeFeed = NOTHING_HEARD;
  private readonly entries = new LRUCache<string, Kept>({
    max: MAX_ENTRIES,
    ttl: WATCHED_ENTRY_MS,
    maxSize: MAX_TOTAL_CHARS,
    sizeCalculation: (kept, entry) => kept.translation.length + entry.length,
  });

  /** Hears other processes' deletions through `feed` from now on. */
  follow(feed: ChangeFeed): void {
    this.#feed = feed;
  }

  /** The feed's generation now: taken before a read or save whose entries will be remembered. */
  get generation(): number {
    return this.#feed.generation;
  }

  /** The translation kept for `entry` (a userEntry), if it may still be served. */
  get(entry: string): string | undefined {
    const kept = this.entries.get(entry);
    if (kept === undefined) return undefined;
    const feed = this.#feed;
    if ((feed.watching && kept.generation === feed.generation) || performance.now() - kept.at <= RECENT_ENTRY_MS) return kept.translation;
    this.entries.delete(entry);
    return undefined;
  }

  /** Keeps what a read or save begun at `generation` (see `generation`) found for `entry`. */
  remember(entry: string, translation: string, generation: number): void {
    if (translation.length <= LONGEST_CHARS) this.entries.set(entry, { translation, generation, at: performance.now() });
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
