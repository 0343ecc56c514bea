/**
 * GET /v1/jobs: a user's own jobs, newest first, optionally of one status, a page at a
 * time (keyset paging on the jobs_user_created index). Rows carry no request and no
 * result: a list of a hundred jobs must not read a hundred documents.
 */
import type { Db } from '../db/database.js';
import { decodeCursor, encodeCursor } from '../db/page-cursor.js';
import type { PublicModel } from '../engines/registry.js';
import type { JobStatus } from './status-filters.js';

/** The page as answered (src/http/schemas/jobs.ts' JobList); next_cursor is null on the last page. */
export async function listJobsOf(db: Db, options: { userId: string; status?: JobStatus; limit: number; cursor?: string }) {
  const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
  let query = db
    .selectFrom('jobs')
    .select(['id', 'status', 'model', 'created_at', 'updated_at'])
    .where('user_id', '=', options.userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit + 1);
  if (options.status !== undefined) query = query.where('status', '=', options.status);
  if (after !== undefined) {
    query = query.where((eb) =>
      eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]),
    );
  }
  const rows = await query.execute();
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    jobs: page.map((row) => ({
      job_id: row.id,
      status: row.status,
      model: row.model as PublicModel,
      created_at: new Date(Number(row.created_at)).toISOString(),
      updated_at: new Date(Number(row.updated_at)).toISOString(),
    })),
    next_cursor: rows.length > options.limit && last ? encodeCursor({ createdAt: Number(last.created_at), id: last.id }) : null,
  };
}
