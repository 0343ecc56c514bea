/**
 * Request and answer types, read from the generated `paths` (src/schema.ts) so they follow
 * the service's OpenAPI document; nothing here is written by hand but the names.
 */
import type { paths } from './schema.js';

type Operation<P extends keyof paths, M extends keyof paths[P]> = paths[P][M];

/** The JSON body an operation takes. */
export type RequestBody<P extends keyof paths, M extends keyof paths[P]> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** The JSON body an operation answers with `status`. */
export type AnswerBody<P extends keyof paths, M extends keyof paths[P], S extends number> =
  Operation<P, M> extends { responses: infer R } ? (S extends keyof R ? (R[S] extends { content: { 'application/json': infer B } } ? B : never) : never) : never;

/** Every `error` code an operation can answer. */
type OperationErrorCodes<O> = O extends { responses: infer R }
  ? { [S in keyof R]: R[S] extends { content: { 'application/json': { error: infer C } } } ? C : never }[keyof R]
  : never;

/** Every error code the service can answer, on any route (docs/errors.md). */
export type ErrorCode = Extract<
  { [P in keyof paths]: { [M in keyof paths[P]]-?: OperationErrorCodes<paths[P][M]> }[keyof paths[P]] }[keyof paths],
  string
>;

export type TranslateRequest = RequestBody<'/v1/translate', 'post'>;
export type TranslateResult = AnswerBody<'/v1/translate', 'post', 200>;
export type BatchRequest = RequestBody<'/v1/translate/batch', 'post'>;
export type BatchResult = AnswerBody<'/v1/translate/batch', 'post', 200>;
export type JobRequest = RequestBody<'/v1/jobs', 'post'>;
export type JobCreated = AnswerBody<'/v1/jobs', 'post', 202>;
export type JobView = AnswerBody<'/v1/jobs/{id}', 'get', 200>;
export type CompletedJob = Extract<JobView, { status: 'completed' }>;
export type FailedJob = Extract<JobView, { status: 'failed' }>;
export type CanceledJob = Extract<JobView, { status: 'canceled' }>;
export type JobListQuery = { status?: JobView['status']; limit?: number; cursor?: string };
export type JobList = AnswerBody<'/v1/jobs', 'get', 200>;
export type WebhookRequest = RequestBody<'/v1/webhooks', 'post'>;
export type WebhookCreated = AnswerBody<'/v1/webhooks', 'post', 201>;
export type WebhookList = AnswerBody<'/v1/webhooks', 'get', 200>;
export type WebhookEndpoint = AnswerBody<'/v1/webhooks/{id}', 'get', 200>;
export type WebhookEvent = WebhookEndpoint['events'][number];
export type DeliveryListQuery = { limit?: number; cursor?: string };
export type DeliveryList = AnswerBody<'/v1/webhooks/{id}/deliveries', 'get', 200>;
export type Usage = AnswerBody<'/v1/usage', 'get', 200>;
export type Languages = AnswerBody<'/v1/languages', 'get', 200>;
export type Language = Languages['languages'][number];
export type EstimateRequest = RequestBody<'/v1/translate/estimate', 'post'>;
export type EstimateResult = AnswerBody<'/v1/translate/estimate', 'post', 200>;
export type GlossaryRequest = RequestBody<'/v1/glossaries', 'post'>;
export type GlossarySummary = AnswerBody<'/v1/glossaries', 'post', 201>;
export type GlossaryList = AnswerBody<'/v1/glossaries', 'get', 200>;
export type Glossary = AnswerBody<'/v1/glossaries/{id}', 'get', 200>;
