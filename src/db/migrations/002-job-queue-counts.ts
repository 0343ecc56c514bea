import { sql, type Kysely } from 'kysely';

/** Bucketed live-job counts that make queue_position cheap (src/jobs/queue-counts.ts). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('job_queue_counts')
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('bucket', 'bigint', (c) => c.notNull())
    .addColumn('shard', 'integer', (c) => c.notNull())
    .addColumn('active', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('job_queue_counts_pk', ['level', 'bucket', 'shard'])
    .execute();
  // Jobs queued before this migration: count them once (integer division is floor here: times are positive).
  await sql`
    insert into job_queue_counts (level, bucket, shard, active)
    select 1, created_at / 1000, 0, count(*) from jobs
    where status in ('pending', 'processing') group by created_at / 1000`.execute(db);
  await sql`
    insert into job_queue_counts (level, bucket, shard, active)
    select 2, bucket / 1000, 0, sum(active) from job_queue_counts where level = 1 group by bucket / 1000`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('job_queue_counts').execute();
}
