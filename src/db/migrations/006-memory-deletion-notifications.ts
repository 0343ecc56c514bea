import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { KEY_CHANGES_CHANNEL } from './005-key-change-notifications.js';

/**
 * PostgreSQL: a statement that deletes translation-memory rows (DELETE /v1/memory in any
 * process, the expiry sweep, an operator's SQL) notifies KEY_CHANGES_CHANNEL as key
 * changes do, so every server hears it on the LISTEN connection it already holds and stops
 * serving the entries it keeps (docs/memory.md; the channel is renamed by migration 010). Only
 * statements that deleted rows: the sweep runs every ≤ 30 s and mostly deletes none.
 * SQLite needs nothing: a server there watches `PRAGMA data_version`. Only adds a function
 * and triggers.
 */
const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql
    .raw(
      `create or replace function translate_notify_memory_deleted() returns trigger language plpgsql as $$
       begin
         if tg_op = 'TRUNCATE' or exists (select 1 from deleted_rows) then
           perform pg_notify('${KEY_CHANGES_CHANNEL}', '');
         end if;
         return null;
       end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger translation_memory_notify_deleted after delete on translation_memory
       referencing old table as deleted_rows for each statement execute function translate_notify_memory_deleted()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger translation_memory_notify_truncated after truncate on translation_memory
       for each statement execute function translate_notify_key_changes()`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql.raw('drop trigger if exists translation_memory_notify_truncated on translation_memory').execute(db);
  await sql.raw('drop trigger if exists translation_memory_notify_deleted on translation_memory').execute(db);
  await sql.raw('drop function if exists translate_notify_memory_deleted()').execute(db);
}
