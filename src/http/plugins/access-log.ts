/**
 * One access-log line per answered request (docs/decisions/0031), in place of Fastify's
 * two ("incoming request" and "request completed"). The completed line carries what the
 * incoming one said (method, path, host, client address) plus the status and the time,
 * which is what operators read. A translating route adds `work`: its model calls, tokens
 * and time (decision 0037; it was a line of its own). A request's arrival on a line of its own is kept at
 * debug level (LOG_LEVEL=debug), where it shows requests that never finish. Fastify's
 * other lines (errors, "request errored", route not found) are unchanged. The completed
 * line is assembled in access-line.ts (decision 0041).
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { WorkSummary } from '../../translation/service.js';
import { writeAccessLine } from './access-line.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by a route that translated: what the work cost, logged on the access line (decision 0037). */
    work: WorkSummary | undefined;
  }
}

export class AccessLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    } else {
      writeAccessLine(reply.log as Logger, request, reply, request.work);
    }
  }
}
