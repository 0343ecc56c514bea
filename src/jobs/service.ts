/**
 * Submitting and reading jobs for a user. A job is validated like a synchronous
 * request, its pre-check reservation is held until it finishes, and workers are
 * nudged as soon as it is stored.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { User } from '../accounts/users.js';
import type { EngineRegistry } from '../engines/registry.js';
import { ServiceError } from '../errors.js';
import type { TranslationMemory } from '../memory/translation-memory.js';
import type { TranslateInput } from '../translation/requests.js';
import { assertModelAccess, reserveForPreCheck, type ReservationDeps } from '../usage/access.js';
import { estimateTokens } from '../usage/estimate.js';
import { workContext } from '../translation/work-context.js';
import { assertDirections } from '../translation/language-directions.js';
import { releaseReservation } from '../usage/ledger.js';
import type { JobDialect, JobRow } from './dialect.js';
import { requestCancel } from './cancel.js';
import { listJobsOf } from './list.js';
import { pageRequest } from '../db/page-cursor.js';
import { JOB_STATUSES, type JobStatus } from './status-filters.js';
import { findJobForUser, insertJob, type JobRequest } from './queue.js';
import { queuePosition } from './queue-counts.js';
import { jobViewOf, type JobViewJson } from './view.js';


/** What submitting and reading jobs use: the reservation's deps, the queue, memory (a glossary is checked with it), the engines, and a logger. */
export interface JobServiceDeps extends ReservationDeps {
  readonly jobDialect: JobDialect;
  /** The engines, to refuse a direction the model's engine cannot translate before the job is queued. */
  readonly engines: EngineRegistry;
  readonly memory: TranslationMemory;
  readonly logger: Logger;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function submitJob(deps: JobServiceDeps, user: User, input: TranslateInput): Promise<JobRow> {
  if (input.format === 'json') assertParsesAsJson(input.content);
  // An unknown glossary answers 404 now, not as a failed job later.
  await workContext(deps, user.id, input);
  assertModelAccess(user, input.model);
  // A named source is checked now; a detected one when the job runs (the engine fails it).
  if (input.source) assertDirections(deps.engines[input.model], input.source, input.targets);
  const { db } = deps.database;
  const jobId = randomUUID();
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

export async function getJobView(deps: JobServiceDeps, user: User, id: string, log: (error: unknown) => void): Promise<JobViewJson> {
  const { db } = deps.database;
  const job = await findJobForUser(db, jobIdOf(id), user.id);
  if (!job) throw notFound();
  let position: number | undefined;
  if (job.status === 'pending' || job.status === 'processing') {
    try {
      position = await queuePosition(db, job);
    } catch (error) {
      log(error); // spec §2.4: omitted when the count fails
    }
  }
  return jobViewOf(job, position);
}

/**
 * DELETE /v1/jobs/{id}: a pending job is canceled at once; a processing one is asked to
 * stop before its next model call (its worker records `canceled` and charges the calls
 * made); a finished one is 409 job_finished.
 */
export async function cancelJob(deps: JobServiceDeps, user: User, id: string): Promise<JobViewJson> {
  const { db } = deps.database;
  const outcome = await requestCancel(db, { jobId: jobIdOf(id), userId: user.id, now: deps.clock() });
  if (outcome === 'not_found') throw notFound();
  if (outcome === 'finished') throw new ServiceError('job_finished', 'the job has already finished; only a pending or processing job can be canceled');
  const job = await findJobForUser(db, jobIdOf(id), user.id);
  if (!job) throw notFound();
  return jobViewOf(job);
}

/** GET /v1/jobs' query as it arrived: strings, checked here. */
export interface JobListQuery {
  readonly status?: unknown;
  readonly limit?: unknown;
  readonly cursor?: unknown;
}

export const JOB_PAGE_DEFAULT = 20;
export const JOB_PAGE_MAX = 100;

/** The caller's own jobs, newest first (list.ts); an unknown status or a bad limit or cursor is 400. */
export async function listJobs(deps: JobServiceDeps, user: User, query: JobListQuery) {
  const { status } = query;
  if (status !== undefined && !(JOB_STATUSES as readonly unknown[]).includes(status)) {
    throw new ServiceError('invalid_request', `status must be one of ${JOB_STATUSES.join(', ')}`);
  }
  const { limit, after } = pageRequest(query, { default: JOB_PAGE_DEFAULT, max: JOB_PAGE_MAX });
  return listJobsOf(deps.database.db, { userId: user.id, limit, after, ...(status !== undefined ? { status: status as JobStatus } : {}) });
}

/** The id as stored (lower-case UUID); anything else cannot name a job. */
function jobIdOf(id: string): string {
  if (!UUID.test(id)) throw notFound();
  return id.toLowerCase();
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

