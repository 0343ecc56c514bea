/**
 * GET /v1/jobs: a user's own jobs, newest first, optionally of one status, a page at a
 * time (keyset paging on the jobs_user_created index). Rows carry no request and no
 * result: a list of a hundred jobs must not read a hundred documents.
 */
import type { Db } from '../db/database.js';
import { olderThan, pageOf, type PagePosition } from '../db/page-cursor.js';
import type { PublicModel } from '../engines/registry.js';
import type { JobStatus } from './status-filters.js';

/** The page as answered (src/http/schemas/jobs.ts' JobList); next_cursor is null on the last page. */
export async function listJobsOf(db: Db, options: { userId: string; status?: JobStatus; limit: number; after: PagePosition | undefined }) {
  let query = db
    .selectFrom('jobs')
    .select(['id', 'status', 'model', 'created_at', 'updated_at'])
    .where('user_id', '=', options.userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit + 1);
  if (options.status !== undefined) query = query.where('status', '=', options.status);
  if (options.after !== undefined) query = query.where(olderThan(options.after));
  const { page, nextCursor } = pageOf(await query.execute(), options.limit);
  return {
    jobs: page.map((row) => ({
      job_id: row.id,
      status: row.status,
      model: row.model as PublicModel,
      created_at: new Date(Number(row.created_at)).toISOString(),
      updated_at: new Date(Number(row.updated_at)).toISOString(),
    })),
    next_cursor: nextCursor,
  };
}
