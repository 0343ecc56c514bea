/**
 * Submitting and reading jobs for a user. A job is validated like a synchronous
 * request, its pre-check reservation is held until it finishes, and workers are
 * nudged as soon as it is stored.
 */
import type { Logger } from 'pino';
import type { User } from '../accounts/users.js';
import { ServiceError } from '../errors.js';
import type { TranslationMemory } from '../memory/translation-memory.js';
import type { TranslateInput } from '../translation/requests.js';
import { assertModelAccess, reserveForPreCheck, type ReservationDeps } from '../usage/access.js';
import { estimateTokens } from '../usage/estimate.js';
import { workContext } from '../translation/work-context.js';
import { releaseReservation } from '../usage/ledger.js';
import type { JobDialect, JobRow } from './dialect.js';
import { findJobForUser, insertJob, newJobId, queuePosition, type JobRequest } from './queue.js';

/**
 * A job as its owner may see it. The HTTP answer's shape (snake_case, ISO timestamps)
 * is built by the route (src/http/routes/jobs.ts).
 */
export type JobState =
  | { id: string; status: 'pending' | 'processing'; createdAt: Date; updatedAt: Date; queuePosition?: number }
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
  | { id: string; status: 'failed'; error: string };

/** What submitting and reading jobs use: the reservation's deps, the queue, memory (a glossary is checked with it), and a logger. */
export interface JobServiceDeps extends ReservationDeps {
  readonly jobDialect: JobDialect;
  readonly memory: TranslationMemory;
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
    ...(input.instructions?.formality ? { formality: input.instructions.formality } : {}),
    ...(input.instructions?.context ? { context: input.instructions.context } : {}),
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

export async function getJobState(deps: JobServiceDeps, user: User, id: string, log: (error: unknown) => void): Promise<JobState> {
  if (!UUID.test(id)) throw notFound();
  const { db } = deps.database;
  const job = await findJobForUser(db, id.toLowerCase(), user.id);
  if (!job) throw notFound();
  const createdAt = date(job.created_at);
  const updatedAt = date(job.updated_at);
  switch (job.status) {
    case 'pending':
    case 'processing': {
      const state: JobState = { id: job.id, status: job.status, createdAt, updatedAt };
      try {
        state.queuePosition = await queuePosition(db, job);
      } catch (error) {
        log(error); // spec §2.4: omitted when the count fails
      }
      return state;
    }
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

function date(ms: number): Date {
  return new Date(Number(ms));
}
