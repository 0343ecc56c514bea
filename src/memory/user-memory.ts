/**
 * One user's view of translation memory, as translation/ uses it for one request:
 * lookup and save in the table (entries read or saved lately from this process's recent
 * entries, recent-entries.ts), and single-flight claims for keys in flight in this
 * process. Keys of both carry the user, so users never share.
 */
import type { Db } from '../db/database.js';
import { BackgroundRenewal } from '../db/background-renewal.js';
import { SharedReads } from '../db/shared-reads.js';
import { recentEntriesOf, type RecentEntries } from './recent-entries.js';
import { processSingleFlight, type Claim, type SingleFlight } from './single-flight.js';
import { lookupMemory, lookupMemoryOfUsers, saveMemory, userEntry, type MemoryEntry } from './store.js';

export type { MemoryEntry } from './store.js';
export type { Claim } from './single-flight.js';

export interface SegmentMemory {
  lookup(keys: readonly string[]): Promise<Map<string, string>>;
  save(entries: readonly MemoryEntry[]): Promise<void>;
  claim(key: string): Claim;
}

/**
 * A lookup of at most this many keys (a short document into a few targets: most requests)
 * joins the lookups of other requests in flight, whoever's (decision 0037); a larger one
 * is a statement of its own anyway.
 */
const SHARED_UP_TO = 16;
/** Entries in one lookup of several users' (shared reads, renewals): at most 512 parameters, well under both backends' limits. */
const LOOKUP_BATCH = 256;
const sharedReadsOf = new WeakMap<Db, SharedReads<string>>();

/** The shared reads of `db` (made on first use, with the clock of its first user: it only dates touches). */
export function sharedReads(db: Db, clock: () => number): SharedReads<string> {
  let reads = sharedReadsOf.get(db);
  if (!reads) {
    reads = new SharedReads((entries) => lookupMemoryOfUsers(db, entries, clock()), { maxInFlight: 4, maxBatch: LOOKUP_BATCH });
    sharedReadsOf.set(db, reads);
  }
  return reads;
}

export function userMemory(
  db: Db,
  userId: string,
  clock: () => number,
  flights: SingleFlight = processSingleFlight,
  recent: RecentEntries = recentEntriesOf(db),
): SegmentMemory {
  return {
    async lookup(keys) {
      const found = new Map<string, string>();
      const missing: string[] = [];
      for (const key of keys) {
        const entry = userEntry(userId, key);
        const kept = recent.get(entry);
        if (kept === undefined) {
          missing.push(key);
          continue;
        }
        found.set(key, kept.translation);
        if (recent.isDue(kept)) {
          recent.renewing(entry, kept);
          renewalOf(recent, db, clock).add(entry);
        }
      }
      if (missing.length === 0) return found;
      const generation = recent.generation;
      const read =
        missing.length <= SHARED_UP_TO ? await lookupShared(sharedReads(db, clock), userId, missing) : await lookupMemory(db, userId, missing, clock());
      for (const [key, translation] of read) {
        found.set(key, translation);
        recent.remember(userEntry(userId, key), translation, generation);
      }
      return found;
    },
    async save(entries) {
      const generation = recent.generation;
      await saveMemory(db, userId, entries, clock());
      for (const { key, translation } of entries) recent.remember(userEntry(userId, key), translation, generation);
    },
    claim: (key) => flights.claim(userEntry(userId, key)),
  };
}

/**
 * The background renewal of `recent`'s entries (db/background-renewal.ts), made on first
 * use with the clock of its first user (it only dates touches).
 */
const renewalsOf = new WeakMap<RecentEntries, BackgroundRenewal<string>>();

function renewalOf(recent: RecentEntries, db: Db, clock: () => number): BackgroundRenewal<string> {
  let renewal = renewalsOf.get(recent);
  if (!renewal) {
    renewal = new BackgroundRenewal<string>(
      {
        read: (entries) => lookupMemoryOfUsers(db, entries, clock()),
        renewed: (entry, translation) => recent.renewed(entry, translation),
        failed: (entry) => recent.renewed(entry, undefined),
      },
      LOOKUP_BATCH,
    );
    renewalsOf.set(recent, renewal);
  }
  return renewal;
}

async function lookupShared(reads: SharedReads<string>, userId: string, keys: readonly string[]): Promise<Map<string, string>> {
  const translations = await Promise.all(keys.map((key) => reads.find(userEntry(userId, key))));
  const found = new Map<string, string>();
  keys.forEach((key, i) => {
    const translation = translations[i];
    if (translation !== undefined) found.set(key, translation);
  });
  return found;
}
