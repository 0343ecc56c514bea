/**
 * A job as its owner sees it in JSON (snake_case, ISO timestamps): the answer of
 * GET /v1/jobs/{id} and the `data` of a webhook event, built in one place so the two
 * never differ. The OpenAPI schema of the same shape is src/http/schemas/jobs.ts.
 */
import type { Db } from '../db/database.js';
import type { JobRow } from './dialect.js';

/**
 * A job as its owner may see it. The HTTP answer's shape (snake_case, ISO timestamps)
 * is built by the route (src/http/routes/jobs.ts).
 */
export type JobState =
  | {
      id: string;
      status: 'pending' | 'processing';
      createdAt: Date;
      updatedAt: Date;
      queuePosition?: number;
      /** Processing, and its owner asked to cancel it: it stops before its next model call. */
      cancelRequestedAt?: Date;
    }
  | {
      id: string;
      status: 'completed';
      createdAt: Date;
      updatedAt: Date;
      completedAt: Date;
      translations: Record<string, string>;
      usage: {
        inputTokens: number;
        outputTokens: number;
        model: string;
        /** Segment × target pairs served from translation memory. */
        cachedSegments: number;
        /** Present when a glossary applied. */
        glossaryMisses?: number;
      };
    }
  | { id: string; status: 'failed'; error: string }
  | {
      id: string;
      status: 'canceled';
      createdAt: Date;
      updatedAt: Date;
      canceledAt: Date;
      /** What the model calls made before it stopped cost (charged); zero when it never ran. */
      usage: { inputTokens: number; outputTokens: number; model: string };
    };

export type JobViewJson =
  | {
      job_id: string;
      status: 'pending' | 'processing';
      created_at: string;
      updated_at: string;
      completed_at: null;
      queue_position?: number;
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
  cached_segments?: number;
  glossary_misses?: number;
}

export function jobViewOf(job: JobState): JobViewJson {
  switch (job.status) {
    case 'pending':
    case 'processing':
      return {
        job_id: job.id,
        status: job.status,
        created_at: job.createdAt.toISOString(),
        updated_at: job.updatedAt.toISOString(),
        completed_at: null,
        ...(job.queuePosition !== undefined ? { queue_position: job.queuePosition } : {}),
        ...(job.cancelRequestedAt ? { cancel_requested_at: job.cancelRequestedAt.toISOString() } : {}),
      };
    case 'completed': {
      const { cachedSegments, glossaryMisses } = job.usage;
      const usage = usageJson(job.usage);
      usage.cached_segments = cachedSegments;
      if (glossaryMisses !== undefined) usage.glossary_misses = glossaryMisses;
      return {
        job_id: job.id,
        status: 'completed',
        created_at: job.createdAt.toISOString(),
        updated_at: job.updatedAt.toISOString(),
        completed_at: job.completedAt.toISOString(),
        translations: job.translations,
        usage,
      };
    }
    case 'failed':
      return { job_id: job.id, status: 'failed', error: job.error };
    case 'canceled':
      return {
        job_id: job.id,
        status: 'canceled',
        created_at: job.createdAt.toISOString(),
        updated_at: job.updatedAt.toISOString(),
        canceled_at: job.canceledAt.toISOString(),
        usage: usageJson(job.usage),
      };
  }
}

function usageJson({ inputTokens, outputTokens, model }: { inputTokens: number; outputTokens: number; model: string }): UsageJson {
  return { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens, model: model as UsageJson['model'] };
}

/** A finished job's view by id, for a webhook event's `data`; undefined when the job is gone. */
export async function finishedJobView(db: Db, id: string): Promise<JobViewJson | undefined> {
  const row = await db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? jobViewOf(stateOfRow(row)) : undefined;
}

/** The state a row holds, without the queue position (a count the caller adds when it wants one). */
export function stateOfRow(job: JobRow): JobState {
  const createdAt = date(job.created_at);
  const updatedAt = date(job.updated_at);
  switch (job.status) {
    case 'pending':
    case 'processing':
      return {
        id: job.id,
        status: job.status,
        createdAt,
        updatedAt,
        ...(job.cancel_requested_at !== null && job.cancel_requested_at !== undefined ? { cancelRequestedAt: date(job.cancel_requested_at) } : {}),
      };
    case 'completed':
      return {
        id: job.id,
        status: 'completed',
        createdAt,
        updatedAt,
        completedAt: date(job.completed_at ?? job.updated_at),
        translations: JSON.parse(job.result ?? '{}') as Record<string, string>,
        usage: {
          inputTokens: Number(job.input_tokens ?? 0),
          outputTokens: Number(job.output_tokens ?? 0),
          model: job.model,
          cachedSegments: Number(job.cached_segments ?? 0),
          ...(job.glossary_misses !== null && job.glossary_misses !== undefined ? { glossaryMisses: Number(job.glossary_misses) } : {}),
        },
      };
    case 'failed':
      return { id: job.id, status: 'failed', error: job.error ?? 'the job failed' };
    case 'canceled':
      return {
        id: job.id,
        status: 'canceled',
        createdAt,
        updatedAt,
        canceledAt: date(job.canceled_at ?? job.updated_at),
        usage: { inputTokens: Number(job.input_tokens ?? 0), outputTokens: Number(job.output_tokens ?? 0), model: job.model },
      };
  }
}

function date(ms: number): Date {
  return new Date(Number(ms));
}
