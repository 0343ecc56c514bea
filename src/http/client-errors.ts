/**
 * Answers in the envelope for what goes wrong before a route runs, so that no answer
 * comes from Fastify's or Node's defaults:
 * - `clientError`: Node's HTTP parser refused the bytes (a malformed or oversized header,
 *   a NUL byte, an unknown method) or the client ran out of time (headers or whole request
 *   past HEADERS_TIMEOUT_SECONDS / REQUEST_TIMEOUT_SECONDS). No Fastify request exists, so
 *   the answer is written on the socket, with a fresh X-Request-Id, and the connection
 *   closed. When part of an answer has already gone out nothing more can be written.
 * - `unsupportedExpectation`: an `Expect` header other than `100-continue`, which Node would
 *   answer itself (417, empty body, no X-Request-Id) before any Fastify request exists.
 *   Answered 417 in the envelope, and the connection closed: the body the client may send
 *   anyway is never read.
 * - `frameworkErrors`: the router could not decode a path parameter (malformed
 *   percent-encoding) or it is longer than the router allows. The only parameter is a job
 *   id, and every id that names no job of the caller is 404 not_found.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_STATUS, type ErrorCode } from '../errors.js';
import type { ErrorBody } from './errors.js';
import { genRequestId } from './plugins/request-id.js';

/** What Node's parser and server report, by error code; anything else is a malformed request. */
const CLIENT_ERRORS: Readonly<Record<string, { code: ErrorCode; message: string }>> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    code: 'request_timeout',
    message: 'the request did not arrive in time (headers or body too slow); send it again',
  },
  HPE_HEADER_OVERFLOW: {
    code: 'headers_too_large',
    message: 'the request line and headers are larger than the server accepts (16 KiB)',
  },
  HPE_INVALID_METHOD: { code: 'invalid_request', message: 'the HTTP method is not one this server knows' },
  HPE_INVALID_HEADER_TOKEN: {
    code: 'invalid_request',
    message: 'a request header is malformed (an invalid character in its name or value, such as a NUL byte)',
  },
  HPE_INVALID_URL: { code: 'invalid_request', message: 'the request target is not a valid URL' },
};
const MALFORMED = { code: 'invalid_request', message: 'the request is not valid HTTP/1.1' } as const;

/** How long an answered client error's socket may take to flush before it is destroyed. */
const CLOSE_GRACE_MS = 1_000;

/** Node reports these when the peer is already gone: nothing to answer. */
const GONE = new Set(['ECONNRESET', 'EPIPE']);

export function clientErrorHandler(logger: FastifyBaseLogger) {
  return function onClientError(error: Error & { code?: string }, socket: Socket): void {
    if ((error.code && GONE.has(error.code)) || socket.destroyed) {
      socket.destroy();
      return;
    }
    const { code, message } = (error.code && CLIENT_ERRORS[error.code]) || MALFORMED;
    const requestId = randomUUID();
    // The parser's error carries the raw bytes (rawPacket): log the code only.
    logger.info({ reqId: requestId, code: error.code, answer: code }, `client error: ${message}`);
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const status = ERROR_STATUS[code];
    const body = JSON.stringify({ error: code, message } satisfies ErrorBody);
    // end(), not write() + destroy(): destroy() drops whatever the kernel has not taken
    // yet. A peer that never reads cannot hold the socket: it is destroyed a second later.
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
    setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
  };
}

const EXPECTATION_FAILED = {
  error: 'expectation_failed',
  message: 'the Expect header asks for something this server does not do; only "Expect: 100-continue" is supported',
} as const satisfies ErrorBody;

/** For the HTTP server's `checkExpectation` event: an Expect other than 100-continue. */
export function unsupportedExpectation(logger: FastifyBaseLogger) {
  return function onUnsupportedExpectation(request: IncomingMessage, response: ServerResponse): void {
    const requestId = genRequestId(request);
    logger.info({ reqId: requestId, answer: EXPECTATION_FAILED.error }, 'client error: an unsupported Expect header');
    const body = JSON.stringify(EXPECTATION_FAILED);
    response.shouldKeepAlive = false;
    response.writeHead(ERROR_STATUS.expectation_failed, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-request-id': requestId,
      connection: 'close',
    });
    response.end(body);
  };
}

/** Router failures on a path parameter: the job id is not one, so there is no such job. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const known = error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  if (!known) request.log.error({ err: error }, 'request failed in the router');
  else request.log.info({ code: error.code }, 'a path parameter could not be read');
  void reply
    .header('x-request-id', request.id)
    .status(known ? 404 : 500)
    .send(
      known
        ? ({ error: 'not_found', message: 'nothing exists at this path (a part of it is malformed or too long)' } satisfies ErrorBody)
        : ({ error: 'server_error', message: 'something went wrong on our side; it is safe to retry' } satisfies ErrorBody),
    );
}
