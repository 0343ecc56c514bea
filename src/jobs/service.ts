/**
 * Submitting and reading jobs for a user. A job is validated like a synchronous
 * request, its pre-check reservation is held until it finishes, and workers are
 * nudged as soon as it is stored.
 */
import type { Logger } from 'pino';
import type { User } from '../accounts/users.js';
import { ServiceError } from '../errors.js';
import type { TranslateInput } from '../translation/requests.js';
import { assertModelAccess, reserveForPreCheck, type ReservationDeps } from '../usage/access.js';
import { estimateTokens } from '../usage/estimate.js';
import { workContext } from '../translation/work-context.js';
import { releaseReservation } from '../usage/ledger.js';
import type { JobDialect, JobRow } from './dialect.js';
import { findJobForUser, insertJob, newJobId, queuePosition, type JobRequest } from './queue.js';

export type JobView =
  | {
      job_id: string;
      status: 'pending' | 'processing';
      created_at: string;
      updated_at: string;
      completed_at: null;
      queue_position?: number;
    }
  | {
      job_id: string;
      status: 'completed';
      created_at: string;
      updated_at: string;
      completed_at: string;
      translations: Record<string, string>;
      usage: {
        input_tokens: number;
        output_tokens: number;
        total_tokens: number;
        model: string;
        cached_segments: number;
        glossary_misses?: number;
      };
    }
  | { job_id: string; status: 'failed'; error: string };

/** What submitting and reading jobs use: the reservation's deps, the queue, and a logger. */
export interface JobServiceDeps extends ReservationDeps {
  readonly jobDialect: JobDialect;
  readonly logger: Logger;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function submitJob(deps: JobServiceDeps, user: User, input: TranslateInput): Promise<JobRow> {
  if (input.format === 'json') assertParsesAsJson(input.content);
  // An unknown glossary answers 404 now, not as a failed job later.
  await workContext(deps, user.id, input);
  assertModelAccess(user, input.model);
  const { db } = deps.database;
  const jobId = newJobId();
  const reservationId = await reserveForPreCheck(deps, user, estimateTokens(input.content.length, input.targets.length), jobId);
  const request: JobRequest = {
    content: input.content,
    targets: input.targets.map((t) => t.requested),
    model: input.model,
    ...(input.format ? { format: input.format } : {}),
    ...(input.source ? { source: input.source.code } : {}),
    ...(input.memory ? {} : { memory: false as const }),
    ...(input.glossaryId !== undefined ? { glossary_id: input.glossaryId } : {}),
  };
  let job: JobRow;
  try {
    job = await insertJob(db, { id: jobId, userId: user.id, request, now: deps.clock() });
  } catch (error) {
    if (reservationId) await releaseReservation(db, reservationId).catch(() => {});
    throw new ServiceError('server_error', 'the job could not be queued; it is safe to retry', { cause: error });
  }
  await deps.jobDialect.notify(db).catch((error) => {
    deps.logger.warn({ err: error }, 'waking workers failed; they will find the job on their next poll');
  });
  return job;
}

export async function getJobView(deps: JobServiceDeps, user: User, id: string, log: (error: unknown) => void): Promise<JobView> {
  if (!UUID.test(id)) throw notFound();
  const { db } = deps.database;
  const job = await findJobForUser(db, id.toLowerCase(), user.id);
  if (!job) throw notFound();
  const created_at = iso(job.created_at);
  const updated_at = iso(job.updated_at);
  switch (job.status) {
    case 'pending':
    case 'processing': {
      const view: JobView = { job_id: job.id, status: job.status, created_at, updated_at, completed_at: null };
      try {
        view.queue_position = await queuePosition(db, job);
      } catch (error) {
        log(error); // spec §2.4: omitted when the count fails
      }
      return view;
    }
    case 'completed': {
      const input = Number(job.input_tokens ?? 0);
      const output = Number(job.output_tokens ?? 0);
      return {
        job_id: job.id,
        status: 'completed',
        created_at,
        updated_at,
        completed_at: iso(job.completed_at ?? job.updated_at),
        translations: JSON.parse(job.result ?? '{}') as Record<string, string>,
        usage: {
          input_tokens: input,
          output_tokens: output,
          total_tokens: input + output,
          model: job.model,
          cached_segments: Number(job.cached_segments ?? 0),
          ...(job.glossary_misses !== null ? { glossary_misses: Number(job.glossary_misses) } : {}),
        },
      };
    }
    case 'failed':
      return { job_id: job.id, status: 'failed', error: job.error ?? 'the job failed' };
  }
}

function assertParsesAsJson(content: string): void {
  try {
    JSON.parse(content);
  } catch {
    throw new ServiceError('invalid_request', 'content is not valid JSON, but format is json');
  }
}

function notFound(): ServiceError {
  return new ServiceError('not_found', 'no job with this id');
}

function iso(ms: number): string {
  return new Date(Number(ms)).toISOString();
}
