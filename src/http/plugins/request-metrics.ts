/**
 * Counts every answered request for GET /metrics, labelled by the route's pattern
 * (`/v1/jobs/:id`, never the raw URL, so labels stay few) or `unmatched` when no route
 * took it, with its status and how long it took.
 */
import type { FastifyInstance } from 'fastify';
import { httpRequestDuration, httpRequests } from '../../metrics/metrics.js';

export function countRequests(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
    httpRequests.inc(labels);
    httpRequestDuration.observe(labels, reply.elapsedTime / 1000);
  });
}
