import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import { cancelJob, getJobView, listJobs, submitJob, type JobListQuery } from '../../jobs/service.js';
import type { JobViewJson } from '../../jobs/view.js';
import { userOf } from '../plugins/auth.js';
import { BILLED_ERRORS, BODY_ERRORS } from '../schemas/errors.js';
import { JobCreated, JobList, JobListQuery as JobListQuerySchema, JobParams, JobView } from '../schemas/jobs.js';
import { authenticatedRoute, limitedRoute } from '../schemas/route.js';
import { TranslateBody } from '../schemas/translate.js';
import { parseTranslateBody } from '../schemas/translate-body.js';
import type { ProtectedHooks } from '../protected-hooks.js';

/**
 * The poll interval a waiting job's answer suggests in Retry-After (docs/decisions/0021):
 * a running job soon, a queued one later the further back it waits, never past 10 s.
 */
export function pollAfterSeconds(job: JobViewJson): number | undefined {
  if (job.status === 'processing') return 2;
  if (job.status === 'pending') return Math.min(10, 2 + Math.floor((job.queue_position ?? 1) / 4));
  return undefined;
}

const submitSchema = limitedRoute({
  tag: 'jobs',
  summary: 'Queue a document for translation in the background',
  description: 'Answers 202 at once; poll GET /v1/jobs/{id}. Usage is charged when the job completes.',
  body: TranslateBody,
  answers: { 202: JobCreated },
  // not_found: a glossary_id naming no glossary of the caller's, answered before the job is stored.
  errors: [...BODY_ERRORS, ...BILLED_ERRORS, 'not_found'],
  idempotent: true,
});

const viewSchema = authenticatedRoute({
  tag: 'jobs',
  summary: 'A job\'s status, and its translations once completed',
  description: 'Does not spend the rate limit. A failed job is a 200 with status failed.',
  params: JobParams,
  answers: { 200: JobView },
  answerHeaders: {
    200: { 'Retry-After': Type.Integer({ minimum: 1, description: 'While the job waits: seconds until it is worth asking again.' }) },
  },
  errors: ['not_found'],
});

const listSchema = authenticatedRoute({
  tag: 'jobs',
  summary: 'Your jobs, newest first',
  description: 'Does not spend the rate limit. Page with limit and the next_cursor of the previous page.',
  query: JobListQuerySchema,
  answers: { 200: JobList },
  errors: [],
});

const cancelSchema = authenticatedRoute({
  tag: 'jobs',
  summary: 'Cancel a job',
  description:
    'A pending job is canceled at once (200, nothing charged). A processing job stops before its next model call (202, ' +
    'cancel_requested_at set); it is charged only for the calls already made. A finished job answers 409 job_finished.',
  params: JobParams,
  answers: { 200: JobView, 202: JobView },
  errors: ['not_found', 'job_finished'],
});

export function jobRoutes(deps: AppDeps, hooks: ProtectedHooks) {
  return async (plain: FastifyInstance): Promise<void> => {
    const app = plain.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/jobs', { schema: submitSchema, onRequest: hooks.limited, ...hooks.idempotent }, async (request, reply) => {
      const input = parseTranslateBody(request.body);
      const job = await submitJob(deps, userOf(request), input);
      return reply.status(202).send({ job_id: job.id, status: 'pending', created_at: new Date(Number(job.created_at)).toISOString() });
    });

    app.get('/jobs', { schema: listSchema, onRequest: hooks.authenticated }, async (request) => listJobs(deps, userOf(request), request.query as JobListQuery));

    app.get('/jobs/:id', { schema: viewSchema, onRequest: hooks.authenticated }, async (request, reply) => {
      const job = await getJobView(deps, userOf(request), (request.params as { id: string }).id, (error) =>
        request.log.warn({ err: error }, 'queue position could not be counted; omitted'),
      );
      const pollAfter = pollAfterSeconds(job);
      if (pollAfter !== undefined) void reply.header('retry-after', pollAfter);
      return job as JobView;
    });

    app.delete('/jobs/:id', { schema: cancelSchema, onRequest: hooks.authenticated }, async (request, reply) => {
      const job = await cancelJob(deps, userOf(request), (request.params as { id: string }).id);
      // 200: canceled now; 202: processing, stops before its next model call.
      return reply.status(job.status === 'canceled' ? 200 : 202).send(job as JobView);
    });
  };
}

