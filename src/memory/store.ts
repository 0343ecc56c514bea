/**
 * The translation-memory table: lookup, save, forget and expire, always for one user
 * (docs/memory.md). Every statement names the user, so one user's entries are never
 * read for another even when their keys are equal.
 */
import type { Db } from '../db/database.js';

/** Keys per statement: well under the parameter limits (SQLite 32,766, PostgreSQL 65,535); fewer statements for large documents. */
const KEYS_PER_QUERY = 5_000;
/** Rows per insert (5 parameters each: 10,000 per statement, under both limits). */
const ROWS_PER_INSERT = 2_000;
/** last_used_at is refreshed at most this often, so a hit is usually a read only. */
const TOUCH_AFTER_MS = 24 * 60 * 60 * 1000;

export interface MemoryEntry {
  readonly key: string;
  readonly translation: string;
}

/** The translations stored for `keys`; hits unused for a day get their last_used_at refreshed. */
export async function lookupMemory(db: Db, userId: string, keys: readonly string[], now: number): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const stale: string[] = [];
  for (let start = 0; start < keys.length; start += KEYS_PER_QUERY) {
    const rows = await db
      .selectFrom('translation_memory')
      .select(['entry_key', 'translation', 'last_used_at'])
      .where('user_id', '=', userId)
      .where('entry_key', 'in', keys.slice(start, start + KEYS_PER_QUERY))
      .execute();
    for (const row of rows) {
      found.set(row.entry_key, row.translation);
      if (Number(row.last_used_at) < now - TOUCH_AFTER_MS) stale.push(row.entry_key);
    }
  }
  for (let start = 0; start < stale.length; start += KEYS_PER_QUERY) {
    await db
      .updateTable('translation_memory')
      .set({ last_used_at: now })
      .where('user_id', '=', userId)
      .where('entry_key', 'in', stale.slice(start, start + KEYS_PER_QUERY))
      .execute();
  }
  return found;
}

/** Stores (or replaces) entries; a concurrent save of the same key keeps the later one. */
export async function saveMemory(db: Db, userId: string, entries: readonly MemoryEntry[], now: number): Promise<void> {
  for (let start = 0; start < entries.length; start += ROWS_PER_INSERT) {
    const rows = entries.slice(start, start + ROWS_PER_INSERT).map((entry) => ({
      user_id: userId,
      entry_key: entry.key,
      translation: entry.translation,
      created_at: now,
      last_used_at: now,
    }));
    await db
      .insertInto('translation_memory')
      .values(rows)
      .onConflict((conflict) =>
        conflict.columns(['user_id', 'entry_key']).doUpdateSet((eb) => ({
          translation: eb.ref('excluded.translation'),
          last_used_at: eb.ref('excluded.last_used_at'),
        })),
      )
      .execute();
  }
}

/** Deletes every entry of the user (DELETE /v1/memory). */
export async function forgetMemory(db: Db, userId: string): Promise<number> {
  const result = await db.deleteFrom('translation_memory').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes entries unused for `maxAgeMs` (TRANSLATION_MEMORY_DAYS), for all users. */
export async function deleteExpiredMemory(db: Db, maxAgeMs: number, now: number): Promise<number> {
  const result = await db.deleteFrom('translation_memory').where('last_used_at', '<', now - maxAgeMs).executeTakeFirst();
  return Number(result.numDeletedRows);
}
