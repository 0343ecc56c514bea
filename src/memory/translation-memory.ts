/**
 * This process's side of translation memory (docs/memory.md), made once by the
 * composition root: entries read or saved lately (a ValidatedCache,
 * cache/validated-cache.ts), lookups of concurrent requests in one statement, keys in
 * flight (single-flight.ts), remembered key digests and compiled lookup statements.
 * `forUser` gives translation/ one user's view for one request; keys of every part carry
 * the user, so users never share.
 *
 * Recent entries (decisions 0037, 0042, 0048): the same segment asked for again and
 * again — a popular UI string, a retried request — is answered without a statement. An
 * entry is immutable for its key except that a later save replaces it (saves go through
 * here too); what keeping can serve late is an entry another process deleted, and the
 * change feed bounds that: RECENT_ENTRY_MS while it is not heard, at once (its
 * notification's delay) while it is. DELETE /v1/memory forgets the user's entries in the
 * process that answers it at once; the expiry sweep drops them all.
 */
import type { ChangeFeed } from '../cache/change-feed.js';
import { ValidatedCache } from '../cache/validated-cache.js';
import type { Db } from '../db/database.js';
import { Turns } from '../event-loop/turns.js';
import { SharedReads } from '../db/shared-reads.js';
import { MemoryKeys, type KeyHeadParts } from './key.js';
import { SingleFlight, type Flight } from './single-flight.js';
import { deleteExpiredMemory, forgetMemory, LookupShapes, lookupMemory, lookupMemoryOfUsers, saveMemory, userEntry, type MemoryEntry } from './store.js';

export type { MemoryEntry } from './store.js';
export type { Flight } from './single-flight.js';

/** One user's memory for one request. */
export interface SegmentMemory {
  /** `keysInWork`: how many keys the request makes in all (a large one does not fill the digest cache; key.ts). */
  /** The memory key of each text with the other parts fixed: they are joined once (key.ts memoryKeyOf). */
  keyOf(parts: KeyHeadParts, keysInWork?: number): (text: string) => string;
  lookup(keys: readonly string[]): Promise<Map<string, string>>;
  /**
   * `keysInWork`: how many keys the request saves in all. A request with more than recent
   * entries hold saves without keeping them: its saves, call by call, would only evict
   * each other (and everything else kept).
   */
  save(entries: readonly MemoryEntry[], keysInWork?: number): Promise<void>;
  /** What one request leads and follows among the keys this process is translating (single-flight.ts). */
  flight(): Flight;
}

/** How long an entry is kept while the change feed is not heard: the bound on a deletion elsewhere. */
export const RECENT_ENTRY_MS = 1_000;
/** An entry's longest life while the feed is heard and silent (as keys', decision 0039). */
export const WATCHED_ENTRY_MS = 30_000;
/**
 * Enough for one entry each of 8,000 users taking turns (decision 0048): a cache smaller
 * than the users who take turns finds nothing. Translations up to LONGEST_CHARS are kept,
 * MAX_TOTAL_CHARS in all (docs/caches.md).
 */
export const RECENT_ENTRIES = 16_384;
const LONGEST_CHARS = 512;
const MAX_TOTAL_CHARS = 3_000_000;
/**
 * A lookup of at most this many keys (a short document into a few targets: most requests)
 * joins the lookups of other requests in flight, whoever's (decision 0037); a larger one
 * is a statement of its own anyway.
 */
const SHARED_UP_TO = 16;
/** Entries in one lookup of several users' (shared reads, renewals): at most 512 parameters, well under both backends' limits. */
const LOOKUP_BATCH = 256;

/**
 * How many of `translations`, from the first, not to keep among recent entries: of the
 * ones short enough, all but the last RECENT_ENTRIES. Kept in order, the earlier ones would
 * only be evicted by the later ones of the same lookup or save — for 100,000 hits an
 * eviction each, a large share of the request's time on the main thread (docs/benchmarks.md,
 * issue 37) — and what stays is the same.
 */
function keptOnlyLast(translations: Iterable<string>): number {
  let short = 0;
  for (const translation of translations) if (translation.length <= LONGEST_CHARS) short++;
  return Math.max(0, short - RECENT_ENTRIES);
}

export class TranslationMemory {
  private readonly recent: ValidatedCache<string>;
  /** Lookups of concurrent requests in one statement (db/shared-reads.ts). */
  readonly reads: SharedReads<string>;
  private readonly flights = new SingleFlight();
  private readonly keys = new MemoryKeys();
  private readonly shapes: LookupShapes;
  private readonly clock: () => number;

  constructor(
    private readonly db: Db,
    parts: { readonly feed: ChangeFeed; readonly clock: () => number },
  ) {
    this.clock = parts.clock;
    this.shapes = new LookupShapes(db);
    const readUsers = (entries: string[]) => lookupMemoryOfUsers(db, this.shapes, entries, this.clock());
    this.reads = new SharedReads(readUsers, { maxInFlight: 4, maxBatch: LOOKUP_BATCH });
    this.recent = new ValidatedCache<string>({
      feed: parts.feed,
      clock: parts.clock,
      heardLifeMs: WATCHED_ENTRY_MS,
      unheardLifeMs: RECENT_ENTRY_MS,
      max: RECENT_ENTRIES,
      maxSize: MAX_TOTAL_CHARS,
      sizeOf: (translation, entry) => translation.length + entry.length,
      renew: readUsers,
      renewBatch: LOOKUP_BATCH,
    });
  }

  /** Renewal reads run so far, for tests. */
  get renewalCount(): number {
    return this.recent.renewalCount;
  }

  /** `userId`'s memory, for one request. */
  forUser(userId: string): SegmentMemory {
    return {
      keyOf: (parts, keysInWork) => this.keys.keyOf(parts, keysInWork),
      lookup: (keys) => this.lookup(userId, keys),
      save: (entries, keysInWork) => this.save(userId, entries, keysInWork),
      flight: () => this.flights.flight(userId),
    };
  }

  /** Deletes the user's entries (DELETE /v1/memory), and forgets them in this process at once. */
  async forget(userId: string): Promise<number> {
    const prefix = userEntry(userId, '');
    const ofUser = (entry: string) => entry.startsWith(prefix);
    this.recent.deleteWhere(ofUser);
    const forgotten = await forgetMemory(this.db, userId);
    // A save that finished during the delete may have kept an entry the table no longer has.
    this.recent.deleteWhere(ofUser);
    return forgotten;
  }

  /** Deletes entries unused for `maxAgeMs`; none of them is served from recent entries again. */
  async expire(maxAgeMs: number, now: number): Promise<number> {
    const forgotten = await deleteExpiredMemory(this.db, maxAgeMs, now);
    if (forgotten > 0) this.recent.clear();
    return forgotten;
  }

  close(): void {
    this.recent.close();
    this.keys.clear();
    this.shapes.clear();
  }

  private async lookup(userId: string, keys: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const turns = new Turns();
    // Before recent entries are asked: a change heard from here on may be one the read missed.
    const start = this.recent.readStart();
    // A lookup of more keys than recent entries hold reads them all from the table without
    // asking: what they hold, the table holds too (they keep only what was read from it or
    // saved to it), and asking cost a joined string for each of up to 200,000 keys of a
    // target, for a few hits at most (decision 0128).
    let missing: readonly string[] = keys;
    if (keys.length <= RECENT_ENTRIES) {
      const notKept: string[] = [];
      // A large document's keys are many: the loop takes turns with other requests.
      for (const key of keys) {
        const kept = this.recent.get(userEntry(userId, key));
        if (kept === undefined) notKept.push(key);
        else found.set(key, kept);
        if (turns.due()) await turns.yield();
      }
      missing = notKept;
    }
    if (missing.length === 0) return found;
    const read = missing.length <= SHARED_UP_TO ? await this.lookupShared(userId, missing) : await lookupMemory(this.db, userId, missing, this.clock());
    // Nothing was kept (a large document's first repeat): the statements' map is the answer.
    const answer = found.size === 0 ? read : found;
    let skip = keptOnlyLast(read.values());
    for (const [key, translation] of read) {
      if (answer !== read) found.set(key, translation);
      if (translation.length <= LONGEST_CHARS && skip-- <= 0) this.recent.set(userEntry(userId, key), translation, start);
      if (turns.due()) await turns.yield();
    }
    return answer;
  }

  private async save(userId: string, entries: readonly MemoryEntry[], keysInWork = entries.length): Promise<void> {
    const start = this.recent.readStart();
    await saveMemory(this.db, userId, entries, this.clock());
    if (keysInWork > RECENT_ENTRIES) return;
    let skip = keptOnlyLast(entries.map((entry) => entry.translation));
    for (const { key, translation } of entries) {
      if (translation.length <= LONGEST_CHARS && skip-- <= 0) this.recent.set(userEntry(userId, key), translation, start);
    }
  }

  private async lookupShared(userId: string, keys: readonly string[]): Promise<Map<string, string>> {
    const translations = await Promise.all(keys.map((key) => this.reads.find(userEntry(userId, key))));
    return new Map(keys.flatMap((key, i) => (translations[i] === undefined ? [] : [[key, translations[i]] as const])));
  }
}
