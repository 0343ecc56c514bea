/**
 * The one error handler: every failure leaves as `{"error", "message"}` with the status
 * of its code. Fastify's own errors (body too large, bad JSON, wrong content type) map
 * to our codes; anything unexpected is logged and answered as a bare server_error.
 * Errors that happen before Fastify has a request (the HTTP parser's, timeouts) are
 * answered in the same envelope by client-errors.ts.
 */
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { ERROR_STATUS, boundMessage, isServiceError, type ErrorCode } from '../errors.js';
import { quote } from './quote.js';

export interface ErrorBody {
  error: ErrorCode;
  message: string;
}

const GENERIC_500 = 'something went wrong on our side; it is safe to retry';
const DATABASE_UNAVAILABLE = 'the service cannot reach its database right now; retry in a few seconds';

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (clientWentAway(request)) {
      // The body never arrived whole (the client hung up or was cut off by the request
      // timeout): nobody is left to answer, and it says nothing about our dependencies.
      request.log.info({ code: (error as { code?: unknown }).code }, 'the client went away before the request was complete');
      void reply.status(400).send({ error: 'invalid_request', message: 'the request body did not arrive complete' });
      return;
    }
    const { status, body } = toErrorResponse(error);
    if (status === ERROR_STATUS.service_unavailable) request.log.warn({ err: error }, 'request failed: a dependency is unavailable');
    else if (status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: body.error }, body.message);
    void reply.status(status).send(body);
  });

  app.setNotFoundHandler((request, reply) => {
    void reply.status(404).send({ error: 'not_found', message: `no route ${request.method} ${quote(request.url.split('?')[0]!)}` });
  });
}

/** The request stream ended early: aborted by the client or destroyed by a timeout. */
function clientWentAway(request: FastifyRequest): boolean {
  return !request.raw.complete && (request.raw.readableAborted || request.raw.destroyed);
}

export function toErrorResponse(error: unknown): { status: number; body: ErrorBody } {
  const response = classify(error);
  return { status: response.status, body: { error: response.body.error, message: boundMessage(response.body.message) } };
}

function classify(error: unknown): { status: number; body: ErrorBody } {
  // The database is down or restarting (most requests meet it first in the auth hook):
  // an outage to wait out, not a bug — also when a service wrapped it as server_error.
  if ((!isServiceError(error) || error.code === 'server_error') && isDatabaseUnavailable(error)) {
    return { status: ERROR_STATUS.service_unavailable, body: { error: 'service_unavailable', message: DATABASE_UNAVAILABLE } };
  }
  if (isServiceError(error)) {
    return { status: error.status, body: { error: error.code, message: error.message || GENERIC_500 } };
  }
  const fastifyError = error as Partial<FastifyError>;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, body: { error: 'payload_too_large', message: 'the body is larger than 2 MiB (2,097,152 bytes); use fewer items or smaller content' } };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return reply400('the body must be JSON, sent with Content-Type: application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return reply400('the body is empty; send a JSON object');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return reply400('the Content-Length header does not match the body');
  }

  if (error instanceof SyntaxError || fastifyError.statusCode === 400) {
    return reply400('the body is not valid JSON');
  }
  if (typeof fastifyError.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return reply400(fastifyError.message ?? 'the request is invalid');
  }
  return { status: ERROR_STATUS.server_error, body: { error: 'server_error', message: GENERIC_500 } };
}

function reply400(message: string): { status: number; body: ErrorBody } {
  return { status: 400, body: { error: 'invalid_request', message } };
}
