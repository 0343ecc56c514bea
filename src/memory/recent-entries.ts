/**
 * Entries read or saved in the last second, kept in this process (decision 0037): the
 * same segment asked for again and again — a popular UI string, a retried request, one
 * sentence into many targets one request after another — is answered without a
 * statement. A read took ~17 µs of SQLite under load and a round trip on PostgreSQL.
 *
 * What a second of keeping can cost, and why it is allowed:
 * - An entry is immutable for its key (the key holds everything that shaped it), except
 *   that a later save replaces it; saves go through here too.
 * - DELETE /v1/memory forgets the user's recent entries in the process that answers it at
 *   once; another process of the same deployment may still serve a forgotten entry for up
 *   to RECENT_ENTRY_MS (docs/memory.md).
 * - Bounded: MAX_ENTRIES entries, translations up to LONGEST_CHARS, MAX_TOTAL_CHARS in
 *   all (~2 MB), least recently used out.
 */
import { LRUCache } from 'lru-cache';
import { perDatabase } from '../db/per-database.js';

export const RECENT_ENTRY_MS = 1_000;
const MAX_ENTRIES = 4_096;
const LONGEST_CHARS = 512;
const MAX_TOTAL_CHARS = 1_000_000;

export class RecentEntries {
  private readonly entries = new LRUCache<string, string>({
    max: MAX_ENTRIES,
    ttl: RECENT_ENTRY_MS,
    maxSize: MAX_TOTAL_CHARS,
    sizeCalculation: (translation, entry) => translation.length + entry.length,
  });

  /** The translation kept for `entry` (a userEntry), if it was read or saved within RECENT_ENTRY_MS. */
  get(entry: string): string | undefined {
    return this.entries.get(entry);
  }

  remember(entry: string, translation: string): void {
    if (translation.length <= LONGEST_CHARS) this.entries.set(entry, translation);
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
