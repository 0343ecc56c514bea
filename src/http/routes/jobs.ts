import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { getJobView, submitJob } from '../../jobs/service.js';
import { userOf } from '../plugins/auth.js';
import { parseTranslateBody } from '../schemas/translate-body.js';
import type { ProtectedHooks } from '../app.js';

export function jobRoutes(deps: AppDeps, hooks: ProtectedHooks) {
  return async (app: FastifyInstance): Promise<void> => {
    app.post('/jobs', { onRequest: hooks.limited }, async (request, reply) => {
      const input = parseTranslateBody(request.body);
      const job = await submitJob(deps, userOf(request), input);
      return reply.status(202).send({ job_id: job.id, status: 'pending', created_at: new Date(job.created_at).toISOString() });
    });

    app.get<{ Params: { id: string } }>('/jobs/:id', { onRequest: hooks.authenticated }, async (request) => {
      return getJobView(deps, userOf(request), request.params.id, (error) =>
        request.log.warn({ err: error }, 'queue position could not be counted; omitted'),
      );
    });
  };
}
