import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { usageReportFor } from '../../usage/service.js';
import { userOf } from '../plugins/auth.js';
import type { ProtectedHooks } from '../app.js';

export function usageRoutes(deps: AppDeps, hooks: ProtectedHooks) {
  return async (app: FastifyInstance): Promise<void> => {
    app.get('/usage', { onRequest: hooks.authenticated }, async (request) => usageReportFor(deps, userOf(request)));
  };
}
