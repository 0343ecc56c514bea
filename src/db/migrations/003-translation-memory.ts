import type { Kysely } from 'kysely';

/**
 * Translation memory (src/memory/): one row per user and hashed key, and what a
 * completed job served from memory or missed of its glossary.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('translation_memory')
    .addColumn('user_id', 'text', (c) => c.notNull())
    // sha256 of the key parts, hex (src/memory/key.ts): fixed width however long the segment.
    .addColumn('entry_key', 'text', (c) => c.notNull())
    .addColumn('translation', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('translation_memory_pk', ['user_id', 'entry_key'])
    .execute();
  // The expiry sweep deletes by age.
  await db.schema.createIndex('translation_memory_last_used').on('translation_memory').column('last_used_at').execute();
  await db.schema.alterTable('jobs').addColumn('cached_segments', 'integer').execute();
  await db.schema.alterTable('jobs').addColumn('glossary_misses', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('glossary_misses').execute();
  await db.schema.alterTable('jobs').dropColumn('cached_segments').execute();
  await db.schema.dropTable('translation_memory').execute();
}
