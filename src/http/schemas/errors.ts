/**
 * The error envelope in the OpenAPI document: per status, `{"error", "message"}` with
 * `error` limited to the codes that status carries on that route (docs/errors.md). A
 * route lists the codes it can answer; `errorResponses` groups them by status, so the
 * answer check (test/helpers/answer-check.ts) fails when a route answers a code it does
 * not declare.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { ERROR_STATUS, type ErrorCode } from '../../errors.js';
import type { Headers } from './headers.js';

/** What every /v1 route can answer whatever it does: a Host-less HTTP/1.1 request, a failure, shutdown or a database outage. */
export const ANY_ROUTE_ERRORS = ['invalid_request', 'server_error', 'service_unavailable'] as const satisfies readonly ErrorCode[];

/** Answered before the route runs, by Node's parser, the timeouts and an unsupported Expect (src/http/client-errors.ts). */
export const TRANSPORT_ERRORS = ['request_timeout', 'expectation_failed', 'headers_too_large'] as const satisfies readonly ErrorCode[];

/** A route behind the API key. */
export const AUTH_ERRORS = ['invalid_api_key'] as const satisfies readonly ErrorCode[];

/** A route behind the key and the per-user rate limit. */
export const LIMITED_ERRORS = ['invalid_api_key', 'rate_limit_reached'] as const satisfies readonly ErrorCode[];

/** A route that reads a JSON body: size, parse and field checks (docs/contract.md §3.4, §3.6). */
export const BODY_ERRORS = ['invalid_request', 'invalid_format', 'invalid_language', 'payload_too_large'] as const satisfies readonly ErrorCode[];

/** A POST route that takes an Idempotency-Key (src/http/plugins/idempotency.ts). */
export const IDEMPOTENCY_ERRORS = ['idempotency_key_in_use', 'idempotency_key_reused'] as const satisfies readonly ErrorCode[];

/** A route that spends tokens: tier access and the free tier's pre-check (docs/contract.md §3.7). */
export const BILLED_ERRORS = ['advanced_not_available', 'unsupported_language_pair', 'token_limit_reached'] as const satisfies readonly ErrorCode[];

const SUMMARY: Record<number, string> = {
  400: 'The request is invalid; the message says which field and why.',
  401: 'No API key, a malformed Authorization header, or an unknown or revoked key.',
  403: 'The tier does not include this model.',
  404: 'Nothing here, or no job of yours with this id.',
  408: 'The request did not arrive in time; the connection is closed.',
  413: 'The body is larger than 2 MiB (2,097,152 bytes).',
  409: 'A request with this Idempotency-Key is still running; retry after it has finished.',
  417: 'An Expect header other than 100-continue; the connection is closed.',
  422: 'The document is within the size limit but beyond what the service will process, or an Idempotency-Key was used with another request.',
  429: 'A limit is reached: the rate limit (with Retry-After) or the free tier\'s monthly tokens.',
  431: 'The request line and headers are larger than 16 KiB.',
  500: 'The work failed (nothing is charged); safe to retry.',
  503: 'The database cannot be reached right now, or this server is shutting down; retry.',
};

export function errorBody(codes: readonly ErrorCode[]): TSchema {
  return Type.Object(
    {
      error: Type.Union(codes.map((code) => Type.Literal(code))),
      message: Type.String({ maxLength: 400, description: 'Human-readable; quotes the input only up to 40 characters.' }),
    },
    { additionalProperties: false },
  );
}

/** Response schemas for these codes, keyed by status; each with the headers `headersFor` gives its status. */
export function errorResponses(codes: readonly ErrorCode[], headersFor: (status: number) => Headers): Record<number, TSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<number, TSchema> = {};
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const description = `${SUMMARY[status] ?? 'Error.'} Codes: ${statusCodes.join(', ')}.`;
    responses[status] = Object.assign(errorBody(statusCodes), { description, headers: headersFor(status) });
  }
  return responses;
}
