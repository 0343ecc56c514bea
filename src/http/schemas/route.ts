/**
 * One place that turns "what a route takes, answers and can fail with" into the Fastify
 * route schema the OpenAPI document is generated from. A new /v1 route adds its body and
 * answer schemas, then one of these calls; the answer check (test/helpers/answer-check.ts)
 * fails for a /v1 route without one.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import type { ErrorCode } from '../../errors.js';
import { ANY_ROUTE_ERRORS, AUTH_ERRORS, IDEMPOTENCY_ERRORS, LIMITED_ERRORS, TRANSPORT_ERRORS, errorResponses } from './errors.js';
import { IdempotencyRequestHeaders, limitedHeaders, plainHeaders, REPLAYED, type Headers } from './headers.js';

export const BEARER_AUTH = 'bearerAuth';

/** A 204 answer: @fastify/swagger documents a `null` schema as a response without content. */
export const NoContent = Type.Null({ description: 'Done; no body.' });

export interface RouteDescription<Answers extends Record<number, TSchema>> {
  readonly tag: 'translation' | 'jobs' | 'glossaries' | 'webhooks' | 'account' | 'service';
  readonly summary: string;
  readonly description?: string;
  /** Described for the document and the client; checked in code (docs/decisions/0001). */
  readonly body?: TSchema;
  readonly params?: TSchema;
  /** The query string, described like the body (checked in code). */
  readonly query?: TSchema;
  /** Success answers by status, e.g. `{ 200: TranslateAnswer }`. */
  readonly answers: Answers;
  /** Extra headers of a success answer, by status (e.g. Retry-After on a waiting job). */
  readonly answerHeaders?: Record<number, Headers>;
  /** The codes this route itself can answer, beyond those of its access level. */
  readonly errors: readonly ErrorCode[];
  /** The 200 answer may also be Server-Sent Events (Accept: text/event-stream), described by this schema. */
  readonly eventStream?: TSchema;
  /** Takes an Idempotency-Key (src/http/plugins/idempotency.ts): its header, 409/422 and Idempotent-Replayed. */
  readonly idempotent?: boolean;
}

/** A route anyone may call. */
export function publicRoute<A extends Record<number, TSchema>>(route: RouteDescription<A>) {
  return schemaOf(route, [], () => plainHeaders(), false);
}

/** A route behind the API key that does not spend the rate limit (polling, usage). */
export function authenticatedRoute<A extends Record<number, TSchema>>(route: RouteDescription<A>) {
  return schemaOf(route, AUTH_ERRORS, () => plainHeaders(), true);
}

/** A route behind the API key and the per-user rate limit; its answers carry X-RateLimit-*. */
export function limitedRoute<A extends Record<number, TSchema>>(route: RouteDescription<A>) {
  return schemaOf(route, LIMITED_ERRORS, limitedHeaders, true);
}

function schemaOf<A extends Record<number, TSchema>>(
  route: RouteDescription<A>,
  accessErrors: readonly ErrorCode[],
  headersFor: (status: number) => Headers,
  secured: boolean,
) {
  const idempotent = route.idempotent === true;
  // A replayed answer, errors included, carries Idempotent-Replayed.
  const headersOf = idempotent ? (status: number) => Object.assign({}, headersFor(status), REPLAYED) : headersFor;
  const answers: Record<number, TSchema> = {};
  for (const [status, schema] of Object.entries(route.answers) as [string, TSchema][]) {
    const extra = route.answerHeaders?.[Number(status)] ?? {};
    const headers = Object.assign({}, headersOf(Number(status)), extra);
    const description = schema.description ?? 'Success.';
    answers[Number(status)] =
      route.eventStream && Number(status) === 200
        ? ({ description, headers, content: { 'application/json': { schema }, 'text/event-stream': { schema: route.eventStream } } } as unknown as TSchema)
        : Object.assign({}, schema, { description, headers });
  }
  const codes = [...ANY_ROUTE_ERRORS, ...TRANSPORT_ERRORS, ...accessErrors, ...route.errors, ...(idempotent ? IDEMPOTENCY_ERRORS : [])];
  const errors = errorResponses(codes, headersOf);
  return {
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    ...(route.body ? { body: route.body } : {}),
    ...(route.params ? { params: route.params } : {}),
    ...(idempotent ? { headers: IdempotencyRequestHeaders } : {}),
    ...(route.query ? { querystring: route.query } : {}),
    ...(secured ? { security: [{ [BEARER_AUTH]: [] }] } : {}),
    // Typed as the success answers only: handlers return those; errors leave through the error handler.
    response: Object.assign({}, errors, answers) as unknown as A,
  };
}
