/** The glossaries table; every statement names the owner, so another user's glossary is indistinguishable from none. */
import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { GlossariesTable } from '../db/schema.js';
import type { Glossary, GlossaryInput } from './glossary.js';

type Row = Selectable<GlossariesTable>;

export async function countGlossaries(db: Db, userId: string): Promise<number> {
  const row = await db.selectFrom('glossaries').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertGlossary(db: Db, userId: string, input: GlossaryInput, now: number): Promise<Glossary> {
  const row = await db
    .insertInto('glossaries')
    .values({ id: randomUUID(), user_id: userId, version: 1, created_at: now, updated_at: now, ...columns(input) })
    .returningAll()
    .executeTakeFirstOrThrow();
  return fromRow(row);
}

/** Newest first (ties by id, so the order is stable). */
export async function listGlossaries(db: Db, userId: string): Promise<Glossary[]> {
  const rows = await db.selectFrom('glossaries').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map(fromRow);
}

export async function findGlossary(db: Db, userId: string, id: string): Promise<Glossary | undefined> {
  const row = await db.selectFrom('glossaries').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return row ? fromRow(row) : undefined;
}

/** Replaces the content and bumps the version in one statement; undefined when there is no such glossary. */
export async function replaceGlossary(db: Db, userId: string, id: string, input: GlossaryInput, now: number): Promise<Glossary | undefined> {
  const row = await db
    .updateTable('glossaries')
    .set((eb) => ({ version: eb('version', '+', 1), updated_at: now, ...columns(input) }))
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
  return row ? fromRow(row) : undefined;
}

export async function deleteGlossary(db: Db, userId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('glossaries').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

function columns(input: GlossaryInput) {
  return {
    name: input.name,
    source: input.source,
    entries: JSON.stringify(input.entries),
    do_not_translate: JSON.stringify(input.doNotTranslate),
    entry_count: input.entries.length,
  };
}

function fromRow(row: Row): Glossary {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    source: row.source,
    version: Number(row.version),
    entries: JSON.parse(row.entries) as Glossary['entries'],
    doNotTranslate: JSON.parse(row.do_not_translate) as string[],
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
