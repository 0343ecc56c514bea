/**
 * The commands' API over the typed client: what it sends, how it reads answers back, and
 * which failures it retries, over real HTTP against a server that answers what the API
 * answers in the cases a real one cannot be made to answer on demand (a 503, a proxy's
 * 502, a rate limit with a one-second Retry-After). The commands against the real
 * service are in sync.test.ts.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { ApiError } from '../../src/localize/api.js';
import { createClientApi, type ClientApiOptions } from '../../src/localize/client-api.js';
import { freePort } from '../helpers/net.js';

type Answer = { status: number; body: unknown; headers?: Record<string, string> };

describe('the commands\' API over the typed client', () => {
  let server: Server;
  let base: string;
  let script: Answer[] = [];
  let seen: { url: string; authorization: string | undefined; body: string }[] = [];
  before(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push({ url: request.url!, authorization: request.headers.authorization, body });
        const answer = script.shift() ?? { status: 500, body: { error: 'server_error', message: 'script ran out' } };
        response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
  });
  after(() => new Promise<void>((done) => server.close(() => done())));
  const apiOf = (options: Partial<ClientApiOptions> = {}) => createClientApi({ baseUrl: base, apiKey: 'k', baseDelayMs: 20, ...options });
  const reset = (answers: Answer[]) => {
    script = answers;
    seen = [];
  };
  const ok = { status: 200, body: { translations: { fr: 'Bonjour' }, usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3, cached_segments: 1, model: 'standard' } } };

  it('sends the /translate body with the key, and reads usage with cached_segments', async () => {
    reset([ok]);
    const api = apiOf({ baseUrl: `${base}/`, apiKey: 'tsk_x' });
    const answer = await api.translate({ content: 'Hello', targets: ['fr'], format: 'plain', source: 'en', glossaryId: 'g1' });
    assert.deepEqual(answer, { translations: { fr: 'Bonjour' }, usage: { inputTokens: 1, outputTokens: 2, cachedSegments: 1 } });
    assert.equal(seen[0]!.url, '/v1/translate');
    assert.equal(seen[0]!.authorization, 'Bearer tsk_x');
    assert.deepEqual(JSON.parse(seen[0]!.body), { content: 'Hello', format: 'plain', targets: ['fr'], source: 'en', glossary_id: 'g1' });
  });

  it('waits out a rate limit\'s Retry-After and retries a 503 and a proxy\'s 502, then succeeds', async () => {
    reset([
      { status: 429, body: { error: 'rate_limit_reached', message: 'slow down' }, headers: { 'retry-after': '1' } },
      { status: 503, body: { error: 'service_unavailable', message: 'db down' } },
      { status: 502, body: 'Bad Gateway' },
      ok,
    ]);
    const started = Date.now();
    const answer = await apiOf().translate({ content: 'Hello', targets: ['fr'] });
    assert.equal(answer.translations.fr, 'Bonjour');
    assert.equal(seen.length, 4);
    assert.ok(Date.now() - started >= 1000, 'the Retry-After second was waited');
  });

  it('does not retry a spent monthly grant or a bad request, and reports the API\'s code and message', async () => {
    reset([{ status: 429, body: { error: 'token_limit_reached', message: 'the free grant is used up' } }, ok]);
    await assert.rejects(apiOf().translate({ content: 'Hello', targets: ['fr'] }), (error: unknown) => {
      return error instanceof ApiError && error.code === 'token_limit_reached' && error.status === 429 && error.message === 'the free grant is used up';
    });
    assert.equal(seen.length, 1);
  });

  it('follows a job through its queue positions to its result, and reports a failed job', async () => {
    reset([
      { status: 202, body: { job_id: 'j1', status: 'pending', created_at: '2026-11-24T00:00:00.000Z' } },
      { status: 200, body: { job_id: 'j1', status: 'pending', queue_position: 2 }, headers: { 'retry-after': '1' } },
      { status: 200, body: { job_id: 'j1', status: 'processing', queue_position: 1 }, headers: { 'retry-after': '1' } },
      { status: 200, body: { job_id: 'j1', status: 'completed', translations: { fr: 'Bonjour' }, usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3, model: 'standard', cached_segments: 3 } } },
      { status: 200, body: { job_id: 'j2', status: 'failed', error: 'the model returned invalid JSON' } },
    ]);
    const api = apiOf();
    const id = await api.createJob({ content: 'Hello', targets: ['fr'] });
    const progress: unknown[] = [];
    const started = Date.now();
    const done = await api.waitForJob(id, (view) => progress.push(view));
    assert.ok(Date.now() - started >= 2000, 'each poll waited the Retry-After the service suggested');
    assert.deepEqual(progress, [
      { jobId: 'j1', status: 'pending', queuePosition: 2 },
      { jobId: 'j1', status: 'processing', queuePosition: 1 },
    ]);
    assert.equal(done.translations.fr, 'Bonjour');
    assert.equal(done.usage.cachedSegments, 3);
    await assert.rejects(api.waitForJob('j2'), (error: unknown) => error instanceof ApiError && error.code === 'job_failed' && /job j2 failed: the model returned invalid JSON/.test(error.message));
  });

  it('asks /translate/estimate with the translate body and reads its answer', async () => {
    reset([{ status: 200, body: { input_tokens: 4, output_tokens: 9, total_tokens: 13, cached_segments: 2, model_calls: 1, precheck: { passes: true, tokens_remaining: 99 } } }]);
    const estimate = await apiOf().estimate({ content: '{"a":"Hi"}', format: 'json', targets: ['de'] });
    assert.equal(seen[0]!.url, '/v1/translate/estimate');
    assert.deepEqual(estimate, { inputTokens: 4, outputTokens: 9, totalTokens: 13, cachedSegments: 2, precheck: { passes: true } });
  });

  it('reports an API that cannot be reached, after its retries, and refuses an API URL without /v1', async () => {
    const closed = await freePort();
    const unreachable = apiOf({ baseUrl: `http://127.0.0.1:${closed}/v1`, attempts: 2 });
    await assert.rejects(unreachable.translate({ content: 'Hello', targets: ['fr'] }), (error: unknown) => {
      return error instanceof ApiError && error.code === 'network_error' && error.message.startsWith(`could not reach http://127.0.0.1:${closed}/v1: `);
    });
    assert.throws(() => apiOf({ baseUrl: 'http://127.0.0.1:8080/api' }), (error: unknown) => error instanceof ApiError && error.code === 'invalid_api_url');
  });
});
