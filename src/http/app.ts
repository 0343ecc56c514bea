/**
 * The Fastify app as a value: built from its dependencies, never listening itself
 * (server.ts does that), so tests build one and use `inject` or a real port.
 */
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type onRequestHookHandler } from 'fastify';
import type { AppDeps } from '../deps.js';
import { registerErrorHandling } from './errors.js';
import { authHook } from './plugins/auth.js';
import { rateLimitHook } from './plugins/rate-limit.js';
import { genRequestId, registerRequestId } from './plugins/request-id.js';
import { healthRoutes } from './routes/health.js';
import { jobRoutes } from './routes/jobs.js';
import { languageRoutes } from './routes/languages.js';
import { translateRoutes } from './routes/translate.js';
import { usageRoutes } from './routes/usage.js';

/** 2 MiB (CONTRACT §3.4). */
export const BODY_LIMIT_BYTES = 2 * 1024 * 1024;

export interface ProtectedHooks {
  /** Authentication only: polling and usage do not spend the rate limit. */
  readonly authenticated: onRequestHookHandler[];
  /** Authentication, then the per-user rate limit. */
  readonly limited: onRequestHookHandler[];
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: genRequestId,
    // Clients that stop reading must not hold a connection for ever.
    requestTimeout: 0,
    return503OnClosing: true,
  });
  app.decorateRequest('user', undefined);
  registerRequestId(app);
  registerErrorHandling(app);

  const authenticate = authHook(deps) as onRequestHookHandler;
  const hooks: ProtectedHooks = {
    authenticated: [authenticate],
    limited: [authenticate, rateLimitHook(deps) as onRequestHookHandler],
  };

  await app.register(
    async (v1) => {
      await v1.register(healthRoutes);
      await v1.register(languageRoutes);
      await v1.register(translateRoutes(deps, hooks));
      await v1.register(jobRoutes(deps, hooks));
      await v1.register(usageRoutes(deps, hooks));
    },
    { prefix: '/v1' },
  );
  return app;
}
