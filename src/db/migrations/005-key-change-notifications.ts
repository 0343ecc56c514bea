import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * PostgreSQL: every statement that changes `api_keys` or `users` notifies the channel
 * KEY_CHANGES_CHANNEL, in the same transaction (delivered at commit), whichever process
 * or tool ran it; each server drops its cached keys when it hears it
 * (src/cache/change-feed.ts; renamed by migration 010). SQLite needs nothing: a server
 * there watches `PRAGMA data_version`. Only adds a function and triggers.
 */
export const KEY_CHANGES_CHANNEL = 'translate_key_changes';

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql
    .raw(
      `create or replace function translate_notify_key_changes() returns trigger language plpgsql as $$
       begin
         perform pg_notify('${KEY_CHANGES_CHANNEL}', '');
         return null;
       end $$`,
    )
    .execute(db);
  for (const table of ['api_keys', 'users']) {
    await sql
      .raw(
        `create trigger ${table}_notify_key_changes after insert or update or delete or truncate on ${table}
         for each statement execute function translate_notify_key_changes()`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const table of ['api_keys', 'users']) await sql.raw(`drop trigger if exists ${table}_notify_key_changes on ${table}`).execute(db);
  await sql.raw('drop function if exists translate_notify_key_changes()').execute(db);
}
