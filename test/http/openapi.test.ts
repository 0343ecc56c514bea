import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ERROR_STATUS, type ErrorCode } from '../../src/errors.js';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import { checkAnswers, type OpenApiDocument, type RecordedAnswer } from '../helpers/answer-check.js';

/** The error codes an error schema allows: a union of literals, or one literal alone. */
function codesOf(schema: { properties: { error: { anyOf?: { enum: string[] }[]; enum?: string[] } } }): string[] {
  const error = schema.properties.error;
  return error.anyOf ? error.anyOf.flatMap((c) => c.enum) : error.enum!;
}

const PUBLIC = new Set(['GET /v1/health', 'GET /v1/languages', 'GET /v1/openapi.json']);

describe('the OpenAPI document at /v1/openapi.json', () => {
  let t: TestApp;
  let document: OpenApiDocument & { components: { securitySchemes: Record<string, { type: string; scheme: string }> } };
  before(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_STORE: 'memory' } });
    const answer = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    assert.equal(answer.statusCode, 200);
    document = json(answer);
  });
  after(() => t.close());

  const operations = () =>
    Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation: operation as any })),
    );

  it('is OpenAPI 3.1 with the bearer scheme, and covers only /v1', () => {
    assert.equal(document.openapi, '3.1.0');
    assert.deepEqual(document.components.securitySchemes.bearerAuth, { ...document.components.securitySchemes.bearerAuth, type: 'http', scheme: 'bearer' });
    for (const path of Object.keys(document.paths)) assert.match(path, /^\/v1\//);
    for (const name of ['POST /v1/translate', 'POST /v1/translate/batch', 'POST /v1/jobs', 'GET /v1/jobs/{id}', 'GET /v1/usage', 'GET /v1/languages']) {
      assert.ok(operations().some((o) => o.name === name), `${name} is documented`);
    }
  });

  it('gives every route a schema: no default response, a body for every answer, the key where one is needed', () => {
    for (const { name, operation } of operations()) {
      const responses = operation.responses as Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
      for (const [status, response] of Object.entries(responses)) {
        assert.notEqual(response.description, 'Default Response', `${name} ${status} has a schema`);
        if (status === '204') assert.equal(response.content, undefined, `${name} 204 has no body`);
        else assert.ok(response.content?.['application/json']?.schema, `${name} ${status} describes its body`);
      }
      assert.equal(PUBLIC.has(name), operation.security === undefined, `${name}: security matches whether it needs a key`);
      if (operation.security) assert.ok(responses['401'], `${name} documents 401`);
      for (const status of ['400', '500', '503']) assert.ok(responses[status], `${name} documents ${status}`);
    }
  });

  it('lists each error code under the status docs/errors.md gives it', () => {
    for (const { name, operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
        if (Number(status) < 400) continue;
        const codes = codesOf(response.content['application/json'].schema);
        assert.ok(codes.length > 0);
        for (const code of codes) assert.equal(ERROR_STATUS[code as ErrorCode], Number(status), `${name}: ${code} under ${status}`);
      }
    }
  });

  it('documents the rate-limit headers on the limited routes, and Retry-After on their 429', () => {
    for (const name of ['POST /v1/translate', 'POST /v1/translate/batch', 'POST /v1/jobs']) {
      const { operation } = operations().find((o) => o.name === name)!;
      for (const status of ['200', '202', '429'].filter((s) => operation.responses[s])) {
        const headers = Object.keys(operation.responses[status].headers ?? {});
        for (const header of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) assert.ok(headers.includes(header), `${name} ${status} names ${header}`);
      }
      assert.ok(operation.responses['429'].headers['Retry-After'], `${name} 429 names Retry-After`);
      const codes = codesOf(operation.responses['429'].content['application/json'].schema);
      assert.deepEqual(codes.sort(), ['rate_limit_reached', 'token_limit_reached']);
    }
  });
});

describe('the answer check', () => {
  let t: TestApp;
  let document: OpenApiDocument;
  let answered: RecordedAnswer;
  before(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_STORE: 'memory' } });
    document = json(await t.app.inject({ method: 'GET', url: '/v1/openapi.json' }));
    const { auth } = await t.key('free');
    await t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: auth }, payload: { content: 'Hello', targets: ['fr'] } });
    await t.app.inject({ method: 'GET', url: '/v1/health' });
    answered = t.answers.find((a) => a.route === '/v1/translate')!;
  });
  after(() => t.close());

  it('passes the real answers of this app', () => {
    assert.equal(answered.status, 200);
    assert.ok(answered.headers.includes('x-ratelimit-limit'));
    assert.deepEqual(checkAnswers(document, t.answers), []);
  });

  it('fails an answer with a property its schema does not describe', () => {
    const body = JSON.stringify({ ...JSON.parse(answered.body), extra: 1 });
    const problems = checkAnswers(document, [{ ...answered, body }]);
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /does not match its schema.*additionalProperty.*extra/);
  });

  it('fails an error code the route does not declare under that status', () => {
    const body = JSON.stringify({ error: 'not_found', message: 'x' });
    assert.match(checkAnswers(document, [{ ...answered, status: 410, body }])[0]!, /does not describe status 410/);
    const wrongCode = JSON.stringify({ error: 'invalid_api_key', message: 'x' });
    assert.match(checkAnswers(document, [{ ...answered, status: 400, body: wrongCode }])[0]!, /does not match its schema/);
  });

  it('fails a route that is not in the document, and a header the document does not name', () => {
    assert.match(checkAnswers(document, [{ ...answered, route: '/v1/not-a-route' }])[0]!, /not in the OpenAPI document/);
    const health = t.answers.find((a) => a.route === '/v1/health')!;
    assert.deepEqual(checkAnswers(document, [health]), []);
    assert.match(checkAnswers(document, [{ ...health, headers: [...health.headers, 'retry-after'] }])[0]!, /header retry-after/);
  });
});

describe('the reference page at /docs', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('is served from the package, with no asset from another host', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.doesNotMatch(page.body, /(src|href)="(https?:)?\/\//);
    const scripts = [...page.body.matchAll(/src="([^"]+\.js)"/g)].map((m) => m[1]!);
    assert.ok(scripts.length > 0);
    for (const script of scripts) {
      const asset = await t.app.inject({ method: 'GET', url: new URL(script, 'http://x/docs/').pathname });
      assert.equal(asset.statusCode, 200, script);
      assert.ok(asset.body.length > 100, script);
    }
    const spec = json(await t.app.inject({ method: 'GET', url: '/docs/json' }));
    assert.equal(spec.openapi, '3.1.0');
  });
});
