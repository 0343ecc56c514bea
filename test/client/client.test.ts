/**
 * The typed client against the real service over HTTP: the app listening on a port, a real
 * database, the pseudo engine, real failures (an engine that fails, a connection cut, the
 * rate limit) rather than a mocked fetch.
 */
import assert from 'node:assert/strict';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  TranslateApiError,
  TranslateClient,
  TranslateJobFailedError,
  TranslateNetworkError,
  type ClientOptions,
} from '../../client/src/index.js';
import { EngineError, type ChunkTranslation, type TranslateChunkInput, type TranslationEngine } from '../../src/engines/engine.js';
import type { EngineRegistry } from '../../src/engines/registry.js';
import type { JobWorker } from '../../src/jobs/worker.js';
import { requestsPerMinute } from '../../src/usage/grants.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { testJobWorker } from '../helpers/job-worker.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';
import { FailingEngine, pseudo, registryOf } from '../helpers/engines.js';

/** Fails its first `failures` calls (retryable, so a 500 translation_error), then translates like pseudo. */
class FlakyEngine implements TranslationEngine {
  readonly id = 'flaky';
  private readonly inner = pseudo();
  readonly budget = this.inner.budget;
  calls = 0;
  constructor(private failures: number) {}
  async translate(input: TranslateChunkInput): Promise<ChunkTranslation> {
    this.calls++;
    if (this.failures-- > 0) throw new EngineError('the model timed out', true);
    return this.inner.translate(input);
  }
}

/** The pseudo engine's marks removed (docs/contract.md §2): what it was given. */
function unmark(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f\u202b\u202c]/g, '');
}

/** `translated` is the pseudo engine's rendering of `source`. */
function assertPseudo(translated: string | undefined, source: string): void {
  assert.ok(translated !== undefined && translated !== source, `translated: ${translated}`);
  assert.equal(unmark(translated), source);
}

function workerFor(t: TestApp, engines: EngineRegistry): JobWorker {
  return testJobWorker(t.services, { engines });
}

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
}

for (const backend of testBackends()) {
  describe(`the typed client against the service on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    // In the past: jobs stored at the app's clock must be due for a worker on the real one.
    const T0 = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
    let now = T0;
    const flaky = new FlakyEngine(0);
    let t: TestApp;
    let baseUrl: string;
    const client = (apiKey: string, options: Partial<ClientOptions> = {}) =>
      new TranslateClient({ baseUrl, apiKey, retry: { baseDelayMs: 50 }, ...options });
    const keyOf = async (tier: 'free' | 'starter' | 'scale') => (await t.key(tier)).key;

    before(async () => {
      t = await startTestApp({ backend, clock: () => now, engines: { standard: flaky, advanced: flaky } });
      baseUrl = await listen(t);
    });
    after(() => t.close());

    it('translates, in batches, and reads languages and usage, typed by the document', async () => {
      now = T0;
      const api = client(await keyOf('starter'));
      const single = await api.translate({ content: 'Hello, world!', targets: ['fr', 'ar'] });
      assertPseudo(single.translations.fr, 'Hello, world!');
      assertPseudo(single.translations.ar, 'Hello, world!');
      assert.match(single.translations.ar!, /^\u202B.*\u202C$/);
      assert.equal(single.usage.detected_format, 'plain');
      const batch = await api.translateBatch({ items: [{ id: 'a', content: 'One' }, { id: 'b', content: 'Two' }], targets: ['de'] });
      assert.deepEqual(batch.results.map((r) => r.id), ['a', 'b']);
      assertPseudo(batch.results[0]!.translations.de, 'One');
      assertPseudo(batch.results[1]!.translations.de, 'Two');
      const languages = await api.languages();
      assert.equal(languages.languages.length, 43);
      assert.ok(languages.languages.find((l) => l.code === 'he')?.rtl);
      const usage = await api.usage();
      assert.equal(usage.tier, 'starter');
      assert.equal(usage.tokens_used, single.usage.total_tokens + batch.usage.total_tokens);
    });

    it('a POST whose answer is lost is retried under the same Idempotency-Key: one job, one charge', async () => {
      now = T0;
      const { key, userId } = await t.key('starter');
      const sentKeys: (string | null)[] = [];
      let lost = 0;
      // The request reaches the service and is done; its answer never reaches the caller.
      const losingFetch: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        if (init?.method === 'POST') sentKeys.push(new Headers(init.headers).get('idempotency-key'));
        if (init?.method === 'POST' && lost++ % 2 === 0) {
          await response.arrayBuffer();
          throw new TypeError('fetch failed: the connection was reset');
        }
        return response;
      };
      const api = client(key, { fetch: losingFetch });
      const job = await api.createJob({ content: 'Queued once.', targets: ['fr'] });
      assert.equal(sentKeys.length, 2);
      assert.match(sentKeys[0] ?? '', /^[0-9a-f-]{36}$/);
      assert.equal(sentKeys[1], sentKeys[0], 'both attempts carry one key');
      const jobs = await t.services.database.db.selectFrom('jobs').select('id').where('user_id', '=', userId).execute();
      assert.deepEqual(jobs.map((row) => row.id), [job.job_id]);

      const translated = await api.translate({ content: 'Paid once.', targets: ['de'], memory: false }, { idempotencyKey: 'my-own-key' });
      assert.deepEqual(sentKeys.slice(2), ['my-own-key', 'my-own-key']);
      assert.equal((await api.usage()).tokens_used, translated.usage.total_tokens, 'charged once for two attempts');
      // Another call is another key.
      await api.translate({ content: 'Paid once.', targets: ['de'], memory: false });
      assert.notEqual(sentKeys[4], sentKeys[0]);
      assert.notEqual(sentKeys[4], 'my-own-key');
    });

    it('translateStream yields each target, then the usage it charged; a failure after the start throws and is not retried', async () => {
      now = T0;
      const api = client(await keyOf('starter'));
      const seen: string[] = [];
      let usage: { total_tokens: number } | undefined;
      for await (const event of api.translateStream({ content: 'Streamed, target by target.', targets: ['fr', 'ar', 'de'] })) {
        if (event.type === 'translation') {
          seen.push(event.target);
          assertPseudo(event.text, 'Streamed, target by target.');
        } else usage = event.usage;
      }
      assert.deepEqual(seen.sort(), ['ar', 'de', 'fr']);
      assert.ok(usage && usage.total_tokens > 0);
      assert.equal((await api.usage()).tokens_used, usage.total_tokens);

      flaky.calls = 0;
      (flaky as unknown as { failures: number }).failures = 1;
      const fresh = client(await keyOf('starter'));
      await assert.rejects(
        (async () => {
          for await (const _ of fresh.translateStream({ content: 'This one fails midway.', targets: ['fr'], memory: false })) void _;
        })(),
        (error: unknown) => error instanceof TranslateApiError && error.code === 'translation_error',
      );
      assert.equal(flaky.calls, 1, 'not retried once the stream had started');
      assert.equal((await fresh.usage()).tokens_used, 0);
      // A refusal before the stream starts is a typed error, as translate's.
      await assert.rejects(
        (async () => {
          for await (const _ of fresh.translateStream({ content: 'x', targets: ['xx'] })) void _;
        })(),
        (error: unknown) => error instanceof TranslateApiError && error.status === 400 && error.code === 'invalid_language',
      );
    });

    it('fails with a typed error carrying the code, and does not retry a 400', async () => {
      const api = client(await keyOf('starter'));
      const seen = t.answers.length;
      await assert.rejects(api.translate({ content: 'Hi', targets: ['xx'] }), (error: unknown) => {
        assert.ok(error instanceof TranslateApiError);
        assert.equal(error.status, 400);
        assert.equal(error.code, 'invalid_language');
        assert.match(error.requestId ?? '', /^[0-9a-f-]{36}$/);
        return true;
      });
      assert.equal(t.answers.length - seen, 1, 'one request, no retry');
      await assert.rejects(client('not-a-key').usage(), (error: unknown) => error instanceof TranslateApiError && error.code === 'invalid_api_key');
    });

    it('retries 500 translation_error with backoff, then succeeds', async () => {
      now = T0;
      const api = client(await keyOf('starter'), { onRetry: (info) => retries.push(info) });
      const retries: { error: unknown; delayMs: number }[] = [];
      flaky.calls = 0;
      (flaky as unknown as { failures: number }).failures = 2;
      const result = await api.translate({ content: 'Again', targets: ['fr'] });
      assertPseudo(result.translations.fr, 'Again');
      assert.equal(retries.length, 2);
      for (const retry of retries) {
        assert.ok(retry.error instanceof TranslateApiError && retry.error.code === 'translation_error');
        assert.ok(retry.delayMs >= 0 && retry.delayMs <= 100, `full jitter under the cap: ${retry.delayMs}`);
      }
    });

    it('gives up after maxAttempts and throws the last error', async () => {
      (flaky as unknown as { failures: number }).failures = 10;
      const api = client(await keyOf('starter'), { retry: { maxAttempts: 3, baseDelayMs: 10 } });
      flaky.calls = 0;
      await assert.rejects(api.translate({ content: 'Never', targets: ['fr'] }), (error: unknown) => error instanceof TranslateApiError && error.code === 'translation_error');
      assert.equal(flaky.calls, 3);
      (flaky as unknown as { failures: number }).failures = 0;
    });

    it('waits out 429 rate_limit_reached for its Retry-After, then succeeds', async () => {
      now = T0;
      const key = await keyOf('free');
      const limit = requestsPerMinute('free')!;
      for (let i = 0; i < limit; i++) {
        const answer = await t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: `Bearer ${key}` }, payload: { content: 'x', targets: ['fr'] } });
        assert.equal(answer.statusCode, 200);
      }
      now = T0 + 59_000; // one second before the first slot frees: Retry-After 1
      const retries: { error: unknown; delayMs: number }[] = [];
      const api = client(key, {
        onRetry: (info) => {
          retries.push(info);
          now = T0 + 60_000;
        },
      });
      const started = performance.now();
      const result = await api.translate({ content: 'Later', targets: ['fr'] });
      assertPseudo(result.translations.fr, 'Later');
      assert.equal(retries.length, 1);
      const error = retries[0]!.error as TranslateApiError;
      assert.equal(error.code, 'rate_limit_reached');
      assert.equal(error.retryAfterSeconds, 1);
      assert.ok(retries[0]!.delayMs >= 1000, `waited ${retries[0]!.delayMs} ms`);
      assert.ok(performance.now() - started >= 1000);
    });

    it('does not retry a 429 that asks for longer than maxDelayMs, and aborts a wait at once', async () => {
      now = T0 + 120_000;
      const key = await keyOf('free');
      const limit = requestsPerMinute('free')!;
      for (let i = 0; i < limit; i++) {
        await t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: `Bearer ${key}` }, payload: { content: 'x', targets: ['fr'] } });
      }
      await assert.rejects(client(key).translate({ content: 'x', targets: ['fr'] }), (error: unknown) => error instanceof TranslateApiError && error.retryAfterSeconds === 60);
      const patient = client(key, { retry: { maxDelayMs: 120_000 } });
      const controller = new AbortController();
      const started = performance.now();
      setTimeout(() => controller.abort(new Error('caller gave up')), 100);
      await assert.rejects(patient.translate({ content: 'x', targets: ['fr'] }, { signal: controller.signal }), /caller gave up/);
      assert.ok(performance.now() - started < 5_000);
      await assert.rejects(patient.usage({ signal: AbortSignal.abort(new Error('already')) }), /already/);
    });

    it('creates a job and waits for it at the interval the service suggests', async () => {
      now = T0 + 300_000;
      const api = client(await keyOf('scale'));
      const job = await api.createJob({ content: 'Queued work', targets: ['fr'] });
      assert.equal(job.status, 'pending');
      const worker = workerFor(t, registryOf(pseudo()));
      const polls: number[] = [];
      const started = performance.now();
      try {
        const done = await api.waitForJob(job.job_id, {
          onPoll: (view, waitMs) => {
            polls.push(waitMs);
            assert.equal(view.status, 'pending');
            if (polls.length === 1) void worker.start();
          },
        });
        assertPseudo(done.translations.fr, 'Queued work');
      } finally {
        await worker.stop(5_000);
      }
      assert.deepEqual(polls, [2_000]);
      assert.ok(performance.now() - started >= 2_000);
    });

    it('estimates what a translation would cost without charging it; the estimate follows translation memory and forgetMemory', async () => {
      now = T0;
      const api = client(await keyOf('starter'));
      const request = { content: 'Estimate this sentence, please.', targets: ['fr'] };
      const before = await api.estimate(request);
      assert.ok(before.total_tokens > 0, JSON.stringify(before));
      assert.equal(before.total_tokens, before.input_tokens + before.output_tokens);
      assert.equal(before.cached_segments, 0);
      assert.equal(before.model_calls, 1);
      assert.equal(before.precheck.passes, true);
      const usageBefore = (await api.usage()).tokens_used;
      await api.translate(request);
      assert.ok((await api.usage()).tokens_used > usageBefore, 'the translation was charged, the estimate was not');
      const after = await api.estimate(request);
      assert.deepEqual({ total: after.total_tokens, cached: after.cached_segments, calls: after.model_calls }, { total: 0, cached: 1, calls: 0 });
      await api.forgetMemory();
      const forgotten = await api.estimate(request);
      assert.equal(forgotten.cached_segments, 0);
      assert.equal(forgotten.total_tokens, before.total_tokens);
      await assert.rejects(api.estimate({ ...request, targets: ['xx'] }), (error: unknown) => error instanceof TranslateApiError && error.code === 'invalid_language');
    });

    it('creates, lists, reads, replaces and deletes a glossary, and a translation uses it', async () => {
      now = T0;
      const api = client(await keyOf('starter'));
      const created = await api.createGlossary({ name: 'Product', source: 'en', entries: [{ term: 'account', translations: { fr: 'compte' } }] });
      assert.equal(created.entry_count, 1);
      assert.deepEqual((await api.listGlossaries()).glossaries.map((g) => g.glossary_id), [created.glossary_id]);
      const translated = await api.translate({ content: 'Open your account', targets: ['fr'], glossary_id: created.glossary_id });
      assert.match(translated.translations.fr!, /compte/);
      assert.equal(translated.usage.glossary_misses, 0);
      const replaced = await api.replaceGlossary(created.glossary_id, { name: 'Product', source: 'en', do_not_translate: ['Acme'] });
      assert.equal(replaced.version, 2);
      assert.deepEqual((await api.getGlossary(created.glossary_id)).do_not_translate, ['Acme']);
      await api.deleteGlossary(created.glossary_id);
      await assert.rejects(api.getGlossary(created.glossary_id), (error: unknown) => error instanceof TranslateApiError && error.status === 404 && error.code === 'not_found');
      await assert.rejects(
        api.createGlossary({ name: 'Empty', source: 'en' }),
        (error: unknown) => error instanceof TranslateApiError && error.code === 'invalid_request',
      );
    });

    it('cancels and lists jobs, and registers, reads, lists and deletes a webhook endpoint', async () => {
      now = T0;
      const api = client(await keyOf('scale'));
      const first = await api.createJob({ content: 'First', targets: ['fr'] });
      now = T0 + 1;
      const second = await api.createJob({ content: 'Second', targets: ['fr'] });
      now = T0;
      const canceled = await api.cancelJob(first.job_id);
      assert.equal(canceled.status, 'canceled');
      await assert.rejects(api.cancelJob(first.job_id), (error: unknown) => error instanceof TranslateApiError && error.status === 409 && error.code === 'job_finished');
      await assert.rejects(api.waitForJob(first.job_id), (error: unknown) => error instanceof TranslateJobFailedError && /canceled/.test(error.message));
      const page = await api.listJobs({ limit: 1 });
      assert.deepEqual(page.jobs.map((job) => job.job_id), [second.job_id]);
      const rest = await api.listJobs({ limit: 1, cursor: page.next_cursor! });
      assert.deepEqual(rest.jobs.map((job) => job.job_id), [first.job_id]);
      assert.deepEqual((await api.listJobs({ status: 'canceled' })).jobs.map((job) => job.job_id), [first.job_id]);
      await api.cancelJob(second.job_id);

      const created = await api.createWebhook({ url: 'https://93.184.216.34/hooks', events: ['job.completed', 'job.canceled'] });
      assert.match(created.secret, /^whsec_/);
      assert.deepEqual((await api.listWebhooks()).webhooks.map((w) => w.webhook_id), [created.webhook_id]);
      assert.deepEqual((await api.getWebhook(created.webhook_id)).events, ['job.completed', 'job.canceled']);
      assert.deepEqual((await api.listWebhookDeliveries(created.webhook_id, { limit: 5 })).deliveries, []);
      await assert.rejects(api.createWebhook({ url: 'https://169.254.169.254/', events: ['job.failed'] }), (error: unknown) => error instanceof TranslateApiError && error.code === 'invalid_request');
      await api.deleteWebhook(created.webhook_id);
      assert.deepEqual((await api.listWebhooks()).webhooks, []);
    });

    it('reports a failed job as TranslateJobFailedError', async () => {
      const api = client(await keyOf('scale'));
      const job = await api.createJob({ content: 'Doomed', targets: ['fr'] });
      const worker = workerFor(t, registryOf(new FailingEngine('the model returned invalid JSON', false)));
      await worker.start();
      try {
        await assert.rejects(api.waitForJob(job.job_id), (error: unknown) => error instanceof TranslateJobFailedError && error.error === 'the model returned invalid JSON');
      } finally {
        await worker.stop(5_000);
      }
    });
  });
}

describe('the typed client over a connection that fails', () => {
  let t: TestApp;
  let cutter: Server;
  let cut = 0;
  let baseUrl: string;
  const open = new Set<Socket>();
  before(async () => {
    t = await startTestApp();
    const target = new URL(await listen(t));
    // Cuts the first connection before any answer; forwards the rest to the service.
    cutter = createServer((socket) => {
      open.add(socket);
      if (cut++ === 0) return socket.destroy();
      const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
      socket.pipe(upstream).pipe(socket);
      for (const s of [socket, upstream]) s.on('error', () => (socket.destroy(), upstream.destroy()));
    });
    await new Promise<void>((resolve) => cutter.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(cutter.address() as { port: number }).port}`;
  });
  after(async () => {
    for (const socket of open) socket.destroy(); // keep-alive connections would hold close() open
    await new Promise((resolve) => cutter.close(resolve));
    await t.close();
  });

  it('retries a network error, and reports one it cannot get past as TranslateNetworkError', async () => {
    const { key } = await t.key('starter');
    const retries: unknown[] = [];
    const api = new TranslateClient({ baseUrl, apiKey: key, retry: { baseDelayMs: 20 }, onRetry: ({ error }) => retries.push(error) });
    assert.equal((await api.languages()).languages.length, 43);
    assert.equal(retries.length, 1);
    assert.ok(retries[0] instanceof TranslateNetworkError);
    const nobody = new TranslateClient({ baseUrl: 'http://127.0.0.1:9', apiKey: key, retry: { maxAttempts: 2, baseDelayMs: 10 } });
    await assert.rejects(nobody.languages(), TranslateNetworkError);
  });
});
