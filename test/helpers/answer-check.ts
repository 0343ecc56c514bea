/**
 * The answer check: every answer the test app gives on a /v1 route is recorded (method,
 * route, status, content type, headers, body) and validated against the OpenAPI document
 * the app itself serves. A route without a schema, a status or error code it does not
 * declare, a property its schema does not describe, or a rate-limit header the document
 * does not name is a problem; test/helpers/app.ts fails the test file on close when there
 * is one. So the document is judged by the suite's real answers, not by samples.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { AnswerInSlices } from '../../src/http/plugins/large-answers.js';

export interface RecordedAnswer {
  readonly method: string;
  /** The route's pattern as Fastify knows it, e.g. `/v1/jobs/:id`. */
  readonly route: string;
  readonly status: number;
  readonly contentType: string | undefined;
  /** Lower-cased names. */
  readonly headers: readonly string[];
  readonly body: string;
}

/** Headers whose presence the document must announce: clients act on them. */
const ANNOUNCED_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'];

/** Records every answer the app gives on a route under /v1; call before `app.ready()`. */
export function recordAnswers(app: FastifyInstance): RecordedAnswer[] {
  const answers: RecordedAnswer[] = [];
  app.addHook('onSend', async (request, reply, payload) => {
    const route = request.routeOptions.url;
    if (route === undefined || !route.startsWith('/v1/')) return payload;
    answers.push({
      method: request.method,
      route,
      status: reply.statusCode,
      contentType: reply.getHeader('content-type')?.toString(),
      headers: Object.keys(reply.getHeaders()).map((name) => name.toLowerCase()),
      body: typeof payload === 'string' ? payload : payload instanceof AnswerInSlices ? payload.text : Buffer.isBuffer(payload) ? payload.toString('utf8') : '',
    });
    return payload;
  });
  return answers;
}

interface Operation {
  responses?: Record<string, { description?: string; headers?: Record<string, unknown>; content?: Record<string, { schema?: object }> }>;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

/** Checks answers against the document; returns one line per problem (none: all documented). */
export function checkAnswers(document: OpenApiDocument, answers: readonly RecordedAnswer[]): string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const validators = new Map<object, ValidateFunction>();
  const problems: string[] = [];
  for (const answer of answers) {
    const where = `${answer.method} ${answer.route} → ${answer.status}`;
    const path = answer.route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const operation = document.paths[path]?.[answer.method.toLowerCase()];
    if (!operation?.responses) {
      problems.push(`${where}: the route is not in the OpenAPI document`);
      continue;
    }
    const response = operation.responses[String(answer.status)];
    if (!response || response.description === 'Default Response') {
      problems.push(`${where}: the route's schema does not describe status ${answer.status}`);
      continue;
    }
    for (const header of answer.headers.filter((name) => ANNOUNCED_HEADERS.includes(name))) {
      const documented = Object.keys(response.headers ?? {}).some((name) => name.toLowerCase() === header);
      if (!documented) problems.push(`${where}: answers header ${header}, which the document does not name for this status`);
    }
    const mediaType = answer.contentType?.split(';')[0]!.trim();
    if (!mediaType) {
      if (answer.body.length > 0) problems.push(`${where}: a body without a content type`);
      continue;
    }
    const schema = response.content?.[mediaType]?.schema;
    if (!schema) {
      problems.push(`${where}: answers ${mediaType}, which the document does not describe for this status`);
      continue;
    }
    // A stream's events are checked by the streaming tests (test/http/translate-stream.test.ts).
    if (mediaType === 'text/event-stream') continue;
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      problems.push(`${where}: the body is not JSON: ${answer.body.slice(0, 200)}`);
      continue;
    }
    let validate = validators.get(schema);
    if (!validate) validators.set(schema, (validate = ajv.compile(schema)));
    if (!validate(body)) {
      const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`).join('; ');
      problems.push(`${where}: the body does not match its schema: ${errors} — body: ${answer.body.slice(0, 300)}`);
    }
  }
  return problems;
}
