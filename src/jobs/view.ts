/**
 * A job as its owner sees it in JSON (snake_case, ISO timestamps): the answer of
 * GET /v1/jobs/{id} and the `data` of a webhook event, built in one place so the two
 * never differ. The OpenAPI schema of the same shape is src/http/schemas/jobs.ts.
 */
import type { Db } from '../db/database.js';
import type { JobRow } from './dialect.js';

export type JobViewJson =
  | {
      job_id: string;
      status: 'pending' | 'processing';
      created_at: string;
      updated_at: string;
      completed_at: null;
      queue_position?: number;
      /** Processing, and its owner asked to cancel it: it stops before its next model call. */
      cancel_requested_at?: string;
    }
  | {
      job_id: string;
      status: 'completed';
      created_at: string;
      updated_at: string;
      completed_at: string;
      translations: Record<string, string>;
      usage: UsageJson;
    }
  | { job_id: string; status: 'failed'; error: string }
  | { job_id: string; status: 'canceled'; created_at: string; updated_at: string; canceled_at: string; usage: UsageJson };

interface UsageJson {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  model: 'standard' | 'advanced';
  /** Completed: segment × target pairs served from translation memory. */
  cached_segments?: number;
  /** Completed, when a glossary applied. */
  glossary_misses?: number;
}

/** The view a row holds; `queuePosition`, a count the caller makes when it wants one, shows on a waiting job. */
export function jobViewOf(job: JobRow, queuePosition?: number): JobViewJson {
  switch (job.status) {
    case 'pending':
    case 'processing':
      return {
        job_id: job.id,
        status: job.status,
        created_at: iso(job.created_at),
        updated_at: iso(job.updated_at),
        completed_at: null,
        ...(queuePosition !== undefined ? { queue_position: queuePosition } : {}),
        ...(job.cancel_requested_at !== null && job.cancel_requested_at !== undefined ? { cancel_requested_at: iso(job.cancel_requested_at) } : {}),
      };
    case 'completed': {
      const usage = usageJson(job);
      usage.cached_segments = Number(job.cached_segments ?? 0);
      if (job.glossary_misses !== null && job.glossary_misses !== undefined) usage.glossary_misses = Number(job.glossary_misses);
      return {
        job_id: job.id,
        status: 'completed',
        created_at: iso(job.created_at),
        updated_at: iso(job.updated_at),
        completed_at: iso(job.completed_at ?? job.updated_at),
        translations: JSON.parse(job.result ?? '{}') as Record<string, string>,
        usage,
      };
    }
    case 'failed':
      return { job_id: job.id, status: 'failed', error: job.error ?? 'the job failed' };
    case 'canceled':
      return {
        job_id: job.id,
        status: 'canceled',
        created_at: iso(job.created_at),
        updated_at: iso(job.updated_at),
        canceled_at: iso(job.canceled_at ?? job.updated_at),
        usage: usageJson(job),
      };
  }
}

/** What the job's model calls cost: charged for a completed job, for the calls made before it stopped for a canceled one. */
function usageJson(job: JobRow): UsageJson {
  const inputTokens = Number(job.input_tokens ?? 0);
  const outputTokens = Number(job.output_tokens ?? 0);
  return { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens, model: job.model as UsageJson['model'] };
}

/** A finished job's view by id, for a webhook event's `data`; undefined when the job is gone. */
export async function finishedJobView(db: Db, id: string): Promise<JobViewJson | undefined> {
  const row = await db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? jobViewOf(row) : undefined;
}

function iso(ms: number): string {
  return new Date(Number(ms)).toISOString();
}
