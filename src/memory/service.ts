/** What the API offers on translation memory itself: forgetting all of a user's entries. */
import type { Db } from '../db/database.js';
import { forgetMemory } from './store.js';

export async function forgetUserMemory(deps: { readonly database: { readonly db: Db } }, userId: string): Promise<number> {
  return forgetMemory(deps.database.db, userId);
}
