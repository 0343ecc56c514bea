/**
 * One access-log line per answered request (docs/decisions/0031), in place of Fastify's
 * two ("incoming request" and "request completed"). The completed line carries what the
 * incoming one said (method, path, host, client address) plus the status and the time,
 * which is what operators read. A request's arrival on a line of its own is kept at
 * debug level (LOG_LEVEL=debug), where it shows requests that never finish. Fastify's
 * other lines (errors, "request errored", route not found) are unchanged.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

export class AccessLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    } else {
      reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
  }
}
