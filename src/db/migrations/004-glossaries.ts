import type { Kysely } from 'kysely';

/** Glossaries (src/glossaries/): a user's terms, stored whole as JSON and replaced whole on PUT. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('glossaries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    // Bumped by every PUT; part of the translation-memory key, so an edit invalidates memory.
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('entries', 'text', (c) => c.notNull())
    .addColumn('do_not_translate', 'text', (c) => c.notNull())
    .addColumn('entry_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('glossaries_user_created').on('glossaries').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('glossaries').execute();
}
