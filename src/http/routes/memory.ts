import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { registerJsonBody } from '../json-body.js';
import { userOf } from '../plugins/auth.js';
import { NoContent, authenticatedRoute } from '../schemas/route.js';
import type { ProtectedHooks } from '../protected-hooks.js';

const forgetSchema = authenticatedRoute({
  tag: 'account',
  summary: 'Delete all of your translation memory',
  description: 'Every stored translation of yours is gone; later requests translate afresh (docs/memory.md).',
  answers: { 204: NoContent },
  errors: [],
});

export function memoryRoutes(deps: AppDeps, hooks: ProtectedHooks) {
  return async (app: FastifyInstance): Promise<void> => {
    registerJsonBody(app, { allowEmpty: true });
    app.delete('/memory', { schema: forgetSchema, onRequest: hooks.authenticated }, async (request, reply) => {
      await deps.memory.forget(userOf(request).id);
      return reply.status(204).send();
    });
  };
}
