/**
 * HTTP/1.1 requests must name a Host (RFC 9112 §3.2); one without is answered 400 in the
 * envelope. Node would answer it itself with a bare 400, so its own check is off (app.ts).
 */
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../errors.js';

export function requireHost(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const { raw } = request;
    if (raw.httpVersionMajor === 1 && raw.httpVersionMinor >= 1 && !raw.headers.host) {
      throw new ServiceError('invalid_request', 'an HTTP/1.1 request needs a Host header');
    }
  });
}
