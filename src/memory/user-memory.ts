/**
 * One user's view of translation memory, as translation/ uses it for one request:
 * lookup and save in the table, and single-flight claims for keys in flight in this
 * process. Keys of the single-flight table carry the user, so users never share.
 */
import type { Db } from '../db/database.js';
import { processSingleFlight, type Claim, type SingleFlight } from './single-flight.js';
import { lookupMemory, saveMemory, type MemoryEntry } from './store.js';

export type { MemoryEntry } from './store.js';
export type { Claim } from './single-flight.js';

export interface SegmentMemory {
  lookup(keys: readonly string[]): Promise<Map<string, string>>;
  save(entries: readonly MemoryEntry[]): Promise<void>;
  claim(key: string): Claim;
}

export function userMemory(
  db: Db,
  userId: string,
  clock: () => number,
  flights: SingleFlight = processSingleFlight,
): SegmentMemory {
  return {
    lookup: (keys) => lookupMemory(db, userId, keys, clock()),
    save: (entries) => saveMemory(db, userId, entries, clock()),
    claim: (key) => flights.claim(`${userId}\u0000${key}`),
  };
}
