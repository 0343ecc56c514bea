/** What the service does to translation memory as a whole: forgetting a user's entries, expiring unused ones. */
import type { Db } from '../db/database.js';
import { recentEntriesOf } from './recent-entries.js';
import { deleteExpiredMemory, forgetMemory } from './store.js';

/** Deletes the user's entries, and forgets them in this process at once (recent-entries.ts). */
export async function forgetUserMemory(deps: { readonly database: { readonly db: Db } }, userId: string): Promise<number> {
  const { db } = deps.database;
  recentEntriesOf(db).forgetUser(userId);
  const forgotten = await forgetMemory(db, userId);
  // A save that finished during the delete may have kept an entry the table no longer has.
  recentEntriesOf(db).forgetUser(userId);
  return forgotten;
}

/** Deletes entries unused for `maxAgeMs`; none of them is served from recent entries again. */
export async function expireMemory(db: Db, maxAgeMs: number, now: number): Promise<number> {
  const forgotten = await deleteExpiredMemory(db, maxAgeMs, now);
  if (forgotten > 0) recentEntriesOf(db).clear();
  return forgotten;
}
