/**
 * GET /metrics in Prometheus's text format, on the API's own port. Served only when
 * METRICS_TOKEN is set, and then only to `Authorization: Bearer <METRICS_TOKEN>`; with no
 * token configured the route does not exist (404 like any unknown route), so a public
 * deployment does not expose its internals by default.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { ServiceError } from '../../errors.js';
import { liveJobCounts } from '../../jobs/queue.js';
import { collectProcessMetrics, jobQueueDepth, metricsRegistry } from '../../metrics/metrics.js';

export const METRICS_PATH = '/metrics';

export function metricsRoutes(deps: AppDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    const token = deps.config.metricsToken;
    if (token === undefined) return;
    collectProcessMetrics();
    const expected = Buffer.from(`Bearer ${token}`);
    app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
      const given = Buffer.from(request.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new ServiceError('invalid_api_key', 'send the metrics token as "Authorization: Bearer <METRICS_TOKEN>"');
      }
      const depth = await liveJobCounts(deps.database.db);
      jobQueueDepth.set({ status: 'pending' }, depth.pending);
      jobQueueDepth.set({ status: 'processing' }, depth.processing);
      return reply.type(metricsRegistry.contentType).send(await metricsRegistry.metrics());
    });
  };
}
