import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { instrumentedRegistry } from '../../src/engines/instrumented.js';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import { testJobWorker } from '../helpers/job-worker.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';
import { FailingEngine, registryOf } from '../helpers/engines.js';
import { freePort } from '../helpers/net.js';

const TOKEN = 'metrics-token-0123456789';

/** The value of one sample in Prometheus's text format (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.slice(name.length).match(/^\{([^}]*)\}/)?.[1] ?? '';
    if (wanted.every((pair) => labelText.split(',').includes(pair))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

describe('GET /metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('does not exist: 404 not_found, whatever the Authorization', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(answer.statusCode, 404);
    assert.equal(json(answer).error, 'not_found');
  });
});

for (const backend of testBackends()) {
  describe(`GET /metrics with METRICS_TOKEN on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let t: TestApp;
    let base: string;
    before(async () => {
      t = await startTestApp({ backend, env: { METRICS_TOKEN: TOKEN, RATE_LIMIT_STORE: 'memory' } });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    });
    after(() => t.close());

    const scrape = async () => {
      const answer = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(answer.status, 200);
      assert.match(answer.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      return answer.text();
    };

    it('answers only the metrics token, over HTTP on the API port', async () => {
      for (const authorization of [undefined, 'Bearer wrong-token-0123456789', `Bearer ${TOKEN}x`, TOKEN]) {
        const answer = await fetch(`${base}/metrics`, authorization ? { headers: { authorization } } : {});
        assert.equal(answer.status, 401, String(authorization));
        assert.equal(((await answer.json()) as { error: string }).error, 'invalid_api_key');
      }
      assert.match(await scrape(), /# TYPE translate_http_requests_total counter/);
    });

    it('counts requests by route and status with latency, and model calls with tokens', async () => {
      const before = await scrape();
      const { auth } = await t.key('starter');
      const answer = await fetch(`${base}/v1/translate`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'Hello there', targets: ['fr', 'de'] }),
      });
      assert.equal(answer.status, 200);
      const usage = ((await answer.json()) as { usage: { input_tokens: number; output_tokens: number } }).usage;
      await fetch(`${base}/v1/jobs/not-a-job`, { headers: { authorization: auth } });
      const after = await scrape();
      const route = { method: 'POST', route: '/v1/translate', status: '200' };
      assert.equal(sample(after, 'translate_http_requests_total', route) - sample(before, 'translate_http_requests_total', route), 1);
      assert.equal(sample(after, 'translate_http_request_duration_seconds_count', route) - sample(before, 'translate_http_request_duration_seconds_count', route), 1);
      const notFound = { method: 'GET', route: '/v1/jobs/:id', status: '404' };
      assert.equal(sample(after, 'translate_http_requests_total', notFound) - sample(before, 'translate_http_requests_total', notFound), 1);
      const engine = { engine: 'pseudo' };
      assert.ok(sample(after, 'translate_model_calls_total', { ...engine, outcome: 'ok' }) > sample(before, 'translate_model_calls_total', { ...engine, outcome: 'ok' }));
      const tokens = (text: string, direction: string) => sample(text, 'translate_model_tokens_total', { ...engine, direction });
      assert.equal(tokens(after, 'input') - tokens(before, 'input'), usage.input_tokens);
      assert.equal(tokens(after, 'output') - tokens(before, 'output'), usage.output_tokens);
      assert.ok(sample(after, 'translate_model_call_duration_seconds_count', { ...engine, outcome: 'ok' }) > 0);
    });

    it('shows the queue depth, job durations and model failures', async () => {
      const { auth } = await t.key('scale');
      const submit = () => t.app.inject({ method: 'POST', url: '/v1/jobs', headers: { authorization: auth }, payload: { content: 'Queued', targets: ['fr'] } });
      const depthBefore = sample(await scrape(), 'translate_job_queue_depth', { status: 'pending' });
      const ids = [json(await submit()).job_id, json(await submit()).job_id];
      assert.equal(sample(await scrape(), 'translate_job_queue_depth', { status: 'pending' }), depthBefore + 2);
      const before = await scrape();
      const failing = new FailingEngine('the model returned invalid JSON', false);
      // Wrapped as services.ts wraps the configured engines for every worker and route.
      const worker = testJobWorker(t.services, { engines: instrumentedRegistry(registryOf(failing)) });
      const failed = new Set<string>();
      worker.on('job:fail', (id: string) => failed.add(id));
      await worker.start();
      try {
        while (!ids.every((id) => failed.has(id))) await once(worker, 'job:fail');
      } finally {
        await worker.stop(5_000);
      }
      const after = await scrape();
      assert.equal(sample(after, 'translate_job_queue_depth', { status: 'pending' }), depthBefore);
      const failedJobs = (text: string) => sample(text, 'translate_job_duration_seconds_count', { outcome: 'failed' });
      assert.equal(failedJobs(after) - failedJobs(before), 2);
      const failures = (text: string) => sample(text, 'translate_model_failures_total', { engine: 'failing', retryable: 'false' });
      assert.equal(failures(after) - failures(before), failing.calls);
      assert.ok(failing.calls >= 2);
    });
  });
}

describe('rate-limit metrics', () => {
  let t: TestApp;
  before(async () => {
    // A Redis nobody listens on: requests are let through, and each one is a counted fallback.
    t = await startTestApp({ env: { METRICS_TOKEN: TOKEN, RATE_LIMIT_STORE: 'redis', REDIS_URL: `redis://127.0.0.1:${await freePort()}` } });
  });
  after(() => t.close());

  const scrape = async () => (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;

  it('counts requests let through because the Redis store failed', async () => {
    const before = sample(await scrape(), 'translate_rate_limit_store_fallbacks_total');
    const { auth } = await t.key('free');
    const answer = await t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: auth }, payload: { content: 'Hi', targets: ['fr'] } });
    assert.equal(answer.statusCode, 200);
    assert.equal(answer.headers['x-ratelimit-limit'], undefined);
    assert.equal(sample(await scrape(), 'translate_rate_limit_store_fallbacks_total') - before, 1);
  });
});

describe('rate-limit rejections in metrics', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { METRICS_TOKEN: TOKEN, RATE_LIMIT_STORE: 'memory' } });
  });
  after(() => t.close());

  it('counts each 429 rate_limit_reached by tier', async () => {
    const scrape = async () => (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
    const before = sample(await scrape(), 'translate_rate_limit_rejections_total', { tier: 'free' });
    const { auth } = await t.key('free');
    let refused = 0;
    for (let i = 0; refused < 2 && i < 1_000; i++) {
      const answer = await t.app.inject({ method: 'POST', url: '/v1/jobs', headers: { authorization: auth }, payload: { content: 'x', targets: ['fr'] } });
      if (answer.statusCode === 429 && json(answer).error === 'rate_limit_reached') refused++;
    }
    assert.equal(refused, 2);
    assert.equal(sample(await scrape(), 'translate_rate_limit_rejections_total', { tier: 'free' }) - before, 2);
  });
});
