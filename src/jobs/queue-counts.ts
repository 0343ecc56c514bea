/**
 * Live-job counts by creation time, so a job's queue position is exact without counting
 * every job ahead of it. Two levels of buckets: a second (fine) and 1,000 seconds
 * (coarse). The position of a job created at t is the live jobs of every coarse bucket
 * before t's, plus the fine buckets before t's within its coarse bucket, plus the jobs
 * of its own second that sort before it. Each part stays small whatever the queue's
 * length: ≤ queue-span/1,000 s coarse rows, ≤ 1,000 fine rows, and one second of jobs.
 *
 * Every change of a job into or out of the live states (pending, processing) goes
 * through `adjustQueueCounts` in the same transaction as the change itself. Each bucket
 * is spread over SHARDS rows picked at random, because every enqueue and completion of
 * a busy second touches the same bucket: with one row, workers queued on its lock
 * (docs/benchmarks.md, "Queue and jobs").
 */
import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { DatabaseSchema } from '../db/schema.js';
import { isLive } from './status-filters.js';

export const FINE_BUCKET_MS = 1_000;
export const FINE_PER_COARSE = 1_000;
const FINE = 1;
const COARSE = 2;
const SHARDS = 16;

type DbOrTrx = Db | Transaction<DatabaseSchema>;

export function fineBucket(createdAt: number): number {
  return Math.floor(createdAt / FINE_BUCKET_MS);
}

export function coarseBucket(createdAt: number): number {
  return Math.floor(fineBucket(createdAt) / FINE_PER_COARSE);
}

/** +1 when a job becomes live (enqueued), −1 when it stops being live (completed, failed). */
export async function adjustQueueCounts(db: DbOrTrx, createdAt: number, delta: 1 | -1): Promise<void> {
  const shard = Math.floor(Math.random() * SHARDS);
  // One statement for both rows, fine before coarse: every transaction locks its rows in
  // the same order, so two of them cannot deadlock on a bucket.
  await db
    .insertInto('job_queue_counts')
    .values([
      { level: FINE, bucket: fineBucket(createdAt), shard, active: delta },
      { level: COARSE, bucket: coarseBucket(createdAt), shard, active: delta },
    ])
    .onConflict((oc) => oc.columns(['level', 'bucket', 'shard']).doUpdateSet({ active: sql`job_queue_counts.active + excluded.active` }))
    .execute();
}

/**
 * −1 for each of `createdAts` (jobs leaving the live states together), in one statement.
 * Rows are summed per bucket and shard and sorted (fine before coarse, then bucket and
 * shard), so this and adjustQueueCounts lock rows in one global order.
 */
export async function releaseQueueCounts(trx: Transaction<DatabaseSchema>, createdAts: readonly number[]): Promise<void> {
  if (createdAts.length === 0) return;
  const rows = new Map<string, { level: number; bucket: number; shard: number; active: number }>();
  for (const createdAt of createdAts) {
    const shard = Math.floor(Math.random() * SHARDS);
    for (const [level, bucket] of [[FINE, fineBucket(createdAt)], [COARSE, coarseBucket(createdAt)]] as const) {
      const key = `${level}:${bucket}:${shard}`;
      const row = rows.get(key) ?? { level, bucket, shard, active: 0 };
      row.active -= 1;
      rows.set(key, row);
    }
  }
  const ordered = [...rows.values()].sort((a, b) => a.level - b.level || a.bucket - b.bucket || a.shard - b.shard);
  await trx
    .insertInto('job_queue_counts')
    .values(ordered)
    .onConflict((oc) => oc.columns(['level', 'bucket', 'shard']).doUpdateSet({ active: sql`job_queue_counts.active + excluded.active` }))
    .execute();
}

/** 1 + live jobs of all users created strictly before this one (ties by id). */
export async function queuePosition(db: Db, job: { id: string; created_at: number }): Promise<number> {
  const fine = fineBucket(job.created_at);
  const coarse = coarseBucket(job.created_at);
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('job_queue_counts')
        .select((e) => e.fn.coalesce(e.fn.sum<number>('active'), e.val(0)).as('n'))
        .where('level', '=', COARSE)
        .where('bucket', '<', coarse)
        .as('coarse_ahead'),
      eb
        .selectFrom('job_queue_counts')
        .select((e) => e.fn.coalesce(e.fn.sum<number>('active'), e.val(0)).as('n'))
        .where('level', '=', FINE)
        .where('bucket', '>=', coarse * FINE_PER_COARSE)
        .where('bucket', '<', fine)
        .as('fine_ahead'),
      eb
        .selectFrom('jobs')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where(isLive)
        .where('created_at', '>=', fine * FINE_BUCKET_MS)
        .where((e) => e(e.refTuple('created_at', 'id'), '<', e.tuple(job.created_at, job.id)))
        .as('same_second_ahead'),
    ])
    .executeTakeFirstOrThrow();
  return 1 + Number(row.coarse_ahead) + Number(row.fine_ahead) + Number(row.same_second_ahead);
}

/** Drops buckets that no longer hold live jobs (the maintenance sweep calls this). */
export async function pruneQueueCounts(db: Db): Promise<number> {
  // A bucket is empty when its shards sum to zero; one shard may be negative (a job
  // counted in on one shard and out on another).
  const result = await sql`
    delete from job_queue_counts where (level, bucket) in (
      select level, bucket from job_queue_counts group by level, bucket having sum(active) = 0)`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** Recomputes every bucket from the jobs table: for migrations and bulk loads, with no enqueues running. */
export async function rebuildQueueCounts(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('job_queue_counts').execute();
    // Literals, not parameters: SQLite would divide by a bound REAL, and PostgreSQL needs
    // the GROUP BY expression to be the selected one.
    const fine = sql.lit(FINE);
    const coarse = sql.lit(COARSE);
    const ms = sql.lit(FINE_BUCKET_MS);
    const perCoarse = sql.lit(FINE_PER_COARSE);
    await sql`
      insert into job_queue_counts (level, bucket, shard, active)
      select ${fine}, created_at / ${ms}, 0, count(*) from jobs
      where status in ('pending', 'processing') group by created_at / ${ms}`.execute(trx);
    await sql`
      insert into job_queue_counts (level, bucket, shard, active)
      select ${coarse}, bucket / ${perCoarse}, 0, sum(active) from job_queue_counts
      where level = ${fine} group by bucket / ${perCoarse}`.execute(trx);
  });
}
