/**
 * The translation-memory table: lookup, save, forget and expire, always for one user
 * (docs/memory.md). Every statement names the user, so one user's entries are never
 * read for another even when their keys are equal.
 */
import type { CompiledQuery } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/database.js';
import { Turns } from '../event-loop/turns.js';

/**
 * Keys per statement, and rows per insert (5 parameters each). Under both backends'
 * parameter limits, and small enough that one statement is a short turn of the event
 * loop: SQLite runs a statement on the main thread, so a large document's statements
 * follow each other with a turn for other requests between them (docs/event-loop.md).
 */
const KEYS_PER_QUERY = 1_000;
const ROWS_PER_INSERT = 500;
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
  const turns = new Turns();
  for (let start = 0; start < keys.length; start += KEYS_PER_QUERY) {
    if (start > 0) await turns.yieldIfLong();
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
  await touch(db, userId, stale, now);
  return found;
}

async function touch(db: Db, userId: string, keys: readonly string[], now: number): Promise<void> {
  const turns = new Turns();
  for (let start = 0; start < keys.length; start += KEYS_PER_QUERY) {
    if (start > 0) await turns.yieldIfLong();
    await db
      .updateTable('translation_memory')
      .set({ last_used_at: now })
      .where('user_id', '=', userId)
      .where('entry_key', 'in', keys.slice(start, start + KEYS_PER_QUERY))
      .execute();
  }
}

/** A user's key, as the shared reads of several users' lookups name it (see lookupMemoryOfUsers). */
export const userEntry = (userId: string, key: string): string => `${userId}\u0000${key}`;

/**
 * The translations stored for the keys of several users at once, by userEntry(user, key):
 * the lookups of concurrent requests in one statement (memory/translation-memory.ts). Reads
 * `user_id in (…) and entry_key in (…)` (the primary key's index, on both backends) and
 * keeps only the pairs asked for, so a user never gets another's entry. Hits unused for a
 * day get their last_used_at refreshed, as in lookupMemory.
 */
export async function lookupMemoryOfUsers(db: Db, shapes: LookupShapes, entries: readonly string[], now: number): Promise<Map<string, string>> {
  const wanted = new Set(entries);
  const users = new Set<string>();
  const keys = new Set<string>();
  for (const entry of entries) {
    const split = entry.indexOf('\u0000');
    users.add(entry.slice(0, split));
    keys.add(entry.slice(split + 1));
  }
  const shape = shapes.statement(users.size, keys.size);
  // The cached statement with this lookup's values, written out (decision 0043).
  const query: CompiledQuery<LookupRow> = { query: shape.query, queryId: shape.queryId, sql: shape.sql, parameters: [...users, ...keys] };
  const { rows } = await db.executeQuery<LookupRow>(query);
  const found = new Map<string, string>();
  const stale = new Map<string, string[]>();
  for (const row of rows) {
    const entry = userEntry(row.user_id, row.entry_key);
    if (!wanted.has(entry)) continue;
    found.set(entry, row.translation);
    if (Number(row.last_used_at) < now - TOUCH_AFTER_MS) {
      if (!stale.has(row.user_id)) stale.set(row.user_id, []);
      stale.get(row.user_id)!.push(row.entry_key);
    }
  }
  for (const [userId, staleKeys] of stale) await touch(db, userId, staleKeys, now);
  return found;
}

interface LookupRow {
  readonly user_id: string;
  readonly entry_key: string;
  readonly translation: string;
  readonly last_used_at: number | string;
}

/**
 * The lookup statements of one database, compiled by Kysely once per shape (its
 * parameters: the users, then the keys). Building and compiling the query anew was most
 * of a memory hit's cost on the request path (decision 0037). Shapes are bounded by the
 * shared reads' batch (256 × 256 at the very most); MAX_SHAPES of them are kept, least
 * recently used out, so hostile traffic cannot grow them.
 */
export class LookupShapes {
  private readonly compiled = new LRUCache<string, CompiledQuery<LookupRow>>({ max: MAX_SHAPES });

  constructor(private readonly db: Db) {}

  statement(users: number, keys: number): CompiledQuery<LookupRow> {
    const shape = `${users}:${keys}`;
    let compiled = this.compiled.get(shape);
    if (!compiled) {
      compiled = this.db
        .selectFrom('translation_memory')
        .select(['user_id', 'entry_key', 'translation', 'last_used_at'])
        .where('user_id', 'in', new Array<string>(users).fill(''))
        .where('entry_key', 'in', new Array<string>(keys).fill(''))
        .compile() as CompiledQuery<LookupRow>;
      this.compiled.set(shape, compiled);
    }
    return compiled;
  }

  clear(): void {
    this.compiled.clear();
  }
}

const MAX_SHAPES = 512;

/** Stores (or replaces) entries; a concurrent save of the same key keeps the later one. */
export async function saveMemory(db: Db, userId: string, entries: readonly MemoryEntry[], now: number): Promise<void> {
  const turns = new Turns();
  for (let start = 0; start < entries.length; start += ROWS_PER_INSERT) {
    if (start > 0) await turns.yieldIfLong();
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
