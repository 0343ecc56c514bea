import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { forgetUserMemory } from '../../memory/service.js';
import { registerJsonBody } from '../json-body.js';
import { userOf } from '../plugins/auth.js';
import type { ProtectedHooks } from '../app.js';

export function memoryRoutes(deps: AppDeps, hooks: ProtectedHooks) {
  return async (app: FastifyInstance): Promise<void> => {
    registerJsonBody(app, { allowEmpty: true });
    app.delete('/memory', { onRequest: hooks.authenticated }, async (request, reply) => {
      await forgetUserMemory(deps, userOf(request).id);
      return reply.status(204).send();
    });
  };
}
