/**
 * The Fastify app as a value: built from its dependencies, never listening itself
 * (src/run/serve.ts does that), so tests build one and use `inject` or a real port.
 */
import { readFileSync } from 'node:fs';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type onRequestHookHandler } from 'fastify';
import type { AppDeps } from '../deps.js';
import { clientErrorHandler, frameworkErrors, unsupportedExpectation } from './client-errors.js';
import { registerErrorHandling } from './errors.js';
import { registerJsonBody } from './json-body.js';
import { deeplRoutes } from './compat/deepl/routes.js';
import { libreTranslateRoutes } from './compat/libretranslate/routes.js';
import { registerReference } from './reference.js';
import { refuseWhileClosing } from './plugins/closing.js';
import { requireHost } from './plugins/host.js';
import { AccessLog } from './plugins/access-log.js';
import { authHook } from './plugins/auth.js';
import { idempotencyHooks, type IdempotencyHooks } from './plugins/idempotency.js';
import { rateLimitHook } from './plugins/rate-limit.js';
import { countRequests } from './plugins/request-metrics.js';
import { genRequestId, registerRequestId } from './plugins/request-id.js';
import { handleInTurns } from './plugins/handle-in-turns.js';
import { largeAnswersInSlices } from './plugins/large-answers.js';
import type { ProtectedHooks } from './protected-hooks.js';
import { healthRoutes } from './routes/health.js';
import { glossaryRoutes } from './routes/glossaries.js';
import { jobRoutes } from './routes/jobs.js';
import { languageRoutes } from './routes/languages.js';
import { metricsRoutes } from './routes/metrics.js';
import { playgroundRoutes } from './routes/playground.js';
import { memoryRoutes } from './routes/memory.js';
import { translateRoutes } from './routes/translate.js';
import { usageRoutes } from './routes/usage.js';
import { webhookRoutes } from './routes/webhooks.js';

const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** 2 MiB (docs/contract.md §3.4). */
export const BODY_LIMIT_BYTES = 2 * 1024 * 1024;

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { headersTimeoutMs, requestTimeoutMs } = deps.config;
  const logger = deps.logger as FastifyBaseLogger;
  const app = Fastify({
    loggerInstance: logger,
    // One line per request instead of two (plugins/access-log.ts).
    logController: new AccessLog(),
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: genRequestId,
    // Slow clients are cut off: the headers within HEADERS_TIMEOUT_SECONDS, the whole
    // request (headers and body) within REQUEST_TIMEOUT_SECONDS; 408 in the envelope.
    requestTimeout: requestTimeoutMs,
    http: {
      headersTimeout: headersTimeoutMs,
      // Node looks for expired requests on this beat (its default, 30 s, would stretch every timeout by up to that).
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(headersTimeoutMs / 4)),
      // Node would answer a missing Host itself, outside the envelope; requireHost does it instead.
      requireHostHeader: false,
    },
    clientErrorHandler: clientErrorHandler(logger),
    frameworkErrors,
    // Requests arriving during shutdown: refuseWhileClosing answers them in the envelope.
    return503OnClosing: false,
  });
  // Node would answer an unsupported Expect itself, outside the envelope.
  app.server.on('checkExpectation', unsupportedExpectation(logger));
  app.decorateRequest('user', undefined);
  app.decorateRequest('work', undefined);
  app.decorateRequest('idempotency', undefined);
  // First of the onRequest hooks, so all of a request's work runs in its turn.
  handleInTurns(app);
  largeAnswersInSlices(app);
  registerRequestId(app);
  // Counted only where someone can read the counts (GET /metrics needs METRICS_TOKEN).
  if (deps.config.metricsToken !== undefined) countRequests(app);
  requireHost(app);
  refuseWhileClosing(app);
  registerErrorHandling(app);
  registerJsonBody(app);

  const authenticate = authHook(deps) as onRequestHookHandler;
  const hooks: ProtectedHooks = {
    authenticated: [authenticate],
    limited: [authenticate, rateLimitHook(deps) as onRequestHookHandler],
    idempotent: idempotencyHooks(deps),
  };

  // Before the routes: the reference collects their schemas as they are added.
  await registerReference(app, PACKAGE_VERSION);
  await app.register(
    async (v1) => {
      await v1.register(healthRoutes);
      await v1.register(languageRoutes);
      await v1.register(translateRoutes(deps, hooks));
      await v1.register(jobRoutes(deps, hooks));
      await v1.register(usageRoutes(deps, hooks));
      await v1.register(memoryRoutes(deps, hooks));
      await v1.register(glossaryRoutes(deps, hooks));
      await v1.register(webhookRoutes(deps, hooks));
    },
    { prefix: '/v1' },
  );
  await app.register(metricsRoutes(deps));
  await app.register(playgroundRoutes);
  // Drop-in APIs for tools that speak DeepL's or LibreTranslate's (docs/compatibility.md).
  await app.register(deeplRoutes(deps), { prefix: '/deepl' });
  await app.register(libreTranslateRoutes(deps), { prefix: '/libretranslate' });
  return app;
}
