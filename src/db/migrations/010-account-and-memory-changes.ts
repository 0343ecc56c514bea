import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { KEY_CHANGES_CHANNEL } from './005-key-change-notifications.js';

/**
 * PostgreSQL: the channel of migrations 005 and 006 carries changed keys and users AND
 * deleted translation memory; it is renamed for what it carries (docs/caches.md). Both
 * trigger functions notify ACCOUNT_AND_MEMORY_CHANGES — and the old channel as well, so
 * servers of the previous release, listening there during a rolling upgrade, keep hearing
 * changes until they are replaced. SQLite needs nothing.
 */
export const ACCOUNT_AND_MEMORY_CHANGES = 'translate_account_and_memory_changes';

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** The two trigger functions of 005 and 006, notifying `channels`. */
async function notifyOn(db: Kysely<unknown>, channels: readonly string[]): Promise<void> {
  const notify = channels.map((channel) => `perform pg_notify('${channel}', '');`).join(' ');
  await sql.raw(`create or replace function translate_notify_key_changes() returns trigger language plpgsql as $$
    begin ${notify} return null; end $$`).execute(db);
  await sql.raw(`create or replace function translate_notify_memory_deleted() returns trigger language plpgsql as $$
    begin if tg_op = 'TRUNCATE' or exists (select 1 from deleted_rows) then ${notify} end if; return null; end $$`).execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await notifyOn(db, [ACCOUNT_AND_MEMORY_CHANGES, KEY_CHANGES_CHANNEL]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await notifyOn(db, [KEY_CHANGES_CHANNEL]);
}
