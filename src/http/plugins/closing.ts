/**
 * While the server shuts down, requests that still arrive (pipelined, or on a keep-alive
 * connection) are answered 503 service_unavailable in the envelope, with Connection:
 * close, so a load balancer sends them elsewhere. Fastify's own refusal for this
 * (return503OnClosing) answers outside the envelope, so it is off (app.ts).
 */
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../errors.js';

export function refuseWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    void reply.header('connection', 'close');
    throw new ServiceError('service_unavailable', 'this server is shutting down; retry, and another one will answer');
  });
}
