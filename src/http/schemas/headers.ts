/**
 * Response headers in the OpenAPI document: the rate-limit headers of docs/contract.md
 * §3.10 (set by src/http/plugins/rate-limit.ts) and the request id every answer carries.
 */
import { Type, type TSchema } from '@sinclair/typebox';

/** Header name → schema, the form @fastify/swagger turns into a response's `headers`. */
export type Headers = Record<string, TSchema>;

const REQUEST_ID = Type.String({ description: 'The caller\'s own X-Request-Id when it sends a sane one, else a fresh UUID; quote it when reporting a problem.' });

const RATE_LIMIT = {
  'X-RateLimit-Limit': Type.Integer({ description: 'Requests the tier allows in any rolling 60 seconds. Absent for enterprise keys.' }),
  'X-RateLimit-Remaining': Type.Integer({ description: 'Accepted requests still possible in the window after this one.' }),
  'X-RateLimit-Reset': Type.Integer({ description: 'Unix time in whole seconds when the next slot frees.' }),
};

const RETRY_AFTER = Type.Integer({ description: 'Seconds until a request slot frees (429 rate_limit_reached only).' });

/** Headers of an answer of a route that does not spend the rate limit. */
export function plainHeaders(): Headers {
  return { 'X-Request-Id': REQUEST_ID };
}

/** Headers of an answer of a rate-limited route with this status. */
export function limitedHeaders(status: number): Headers {
  return {
    'X-Request-Id': REQUEST_ID,
    // Answers refused before the limit is counted (401, the transport's) carry none; the rest carry all three.
    ...(status === 401 || status === 408 || status === 431 ? {} : RATE_LIMIT),
    ...(status === 429 ? { 'Retry-After': RETRY_AFTER } : {}),
  };
}

/** On the answers of a route that takes an Idempotency-Key, when the answer is a stored one. */
export const REPLAYED: Headers = {
  'Idempotent-Replayed': Type.Literal('true', {
    description: 'This is the stored answer to an earlier request with the same Idempotency-Key and body: nothing was done or charged again.',
  }),
};

/** The request header of the routes that take an Idempotency-Key (documented; checked in code). */
export const IdempotencyRequestHeaders = Type.Object({
  'Idempotency-Key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x20-\\x7E]+$',
      description:
        'Makes a retry safe (docs/idempotency.md): the same key with the same body within 24 hours gets the first answer again, with Idempotent-Replayed: true, and nothing is charged or queued twice. 1–255 printable ASCII characters; a UUID is a good key.',
    }),
  ),
});
