import { sql, type Kysely } from 'kysely';

/**
 * Cancelling and listing jobs (docs/jobs.md): a processing job's cancel request is a
 * timestamp its worker reads before each model call; a canceled job keeps the time it
 * stopped. The owner's list reads (user_id, created_at, id) newest first. `canceled` is a
 * finished state, so the retention sweep's partial index is rebuilt to cover it (SQLite
 * uses a partial index only when the query's condition matches its WHERE literally).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('cancel_requested_at', 'bigint').execute();
  await db.schema.alterTable('jobs').addColumn('canceled_at', 'bigint').execute();
  await db.schema.createIndex('jobs_user_created').on('jobs').columns(['user_id', 'created_at', 'id']).execute();
  await db.schema.dropIndex('jobs_finished_updated').execute();
  await db.schema
    .createIndex('jobs_finished_updated')
    .on('jobs')
    .column('updated_at')
    .where(sql.ref('status'), 'in', ['completed', 'failed', 'canceled'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('jobs_finished_updated').execute();
  await db.schema
    .createIndex('jobs_finished_updated')
    .on('jobs')
    .column('updated_at')
    .where(sql.ref('status'), 'in', ['completed', 'failed'])
    .execute();
  await db.schema.dropIndex('jobs_user_created').execute();
  await db.schema.alterTable('jobs').dropColumn('canceled_at').execute();
  await db.schema.alterTable('jobs').dropColumn('cancel_requested_at').execute();
}
