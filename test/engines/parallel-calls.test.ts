/**
 * The real app, and a real job worker, against a fake OpenAI-compatible provider that
 * takes its time (time to first token, output tokens per second): a request planned
 * into several model calls runs them in parallel, the provider's concurrency cap holds
 * across requests, one failing call fails the whole request and charges nothing, a
 * client that disconnects cancels every call, and every target's answers come back in
 * document order.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, describe, test } from 'node:test';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import {
  echoTranslator,
  errorReply,
  startFakeProvider,
  userMessage,
  userText,
  type FakeProvider,
} from '../helpers/fake-provider.js';

/** Twelve paragraphs of 25–40 o200k tokens: with a 150-token call budget, several calls per target. */
const PARAGRAPHS = Array.from(
  { length: 12 },
  (_, i) =>
    `Paragraph ${i + 1}: our support team answers every question within one business day, and the invoice for month ${i + 1} can be downloaded from the billing page.`,
);
const DOCUMENT = PARAGRAPHS.join('\n\n');
const CONCURRENCY = 3;

/** The document as the echo translator returns it for `code`. */
const echoed = (code: string, paragraphs: readonly string[] = PARAGRAPHS) => paragraphs.map((p) => `[${code}] ${p}`).join('\n\n');

/** The app's last log line with message `msg`. */
/** What the last access line says the translation's work cost (decision 0037). */
function lastWork(t: TestApp): Record<string, unknown> | undefined {
  return t.logs.filter((log) => log.msg === 'request completed').at(-1)?.work as Record<string, unknown> | undefined;
}

/** Waits until `check` holds, polling; fails after `ms`. */
async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('model calls planned for latency, against a provider that takes its time', () => {
  let provider: FakeProvider;
  let t: TestApp;
  let auth: string;

  before(async () => {
    // Every answer takes 60 ms to its first token, then 2,000 tokens/s for the usage's 40.
    provider = await startFakeProvider({ ttftMs: 60, tokensPerSecond: 2000 });
    t = await startTestApp({
      env: {
        RATE_LIMIT_STORE: 'none',
        MODEL_STANDARD: 'openai:fake-model',
        OPENAI_BASE_URL: provider.baseUrl,
        CALL_OUTPUT_BUDGET_TOKENS: '150',
        ENGINE_CONCURRENCY: String(CONCURRENCY),
      },
    });
    auth = (await t.key('growth')).auth;
  });
  after(async () => {
    await t.close();
    await provider.close();
  });
  afterEach(() => {
    provider.fallback(() => errorReply(500));
    provider.reset();
  });

  // These tests count model calls: translation memory (test/memory/) would serve repeated content.
  const translate = (payload: object) =>
    t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: auth }, payload: { ...payload, memory: false } });
  const tokensUsed = async (): Promise<number> =>
    json(await t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: auth } })).tokens_used;

  test('a document fans out into calls that run together, and each target is assembled in document order', async () => {
    provider.fallback(echoTranslator({ input: 100, output: 40 }));

    const response = await translate({ content: DOCUMENT, targets: ['de', 'fr', 'ja'], source: 'en', format: 'plain' });

    assert.equal(response.statusCode, 200, response.body);
    const body = json(response);
    for (const code of ['de', 'fr', 'ja']) assert.equal(body.translations[code], echoed(code));
    const calls = provider.requests.length;
    assert.ok(calls >= 4, `planned into ${calls} calls`);
    assert.ok(provider.maxInFlight >= 2, 'the provider saw calls in flight together');
    assert.ok(provider.maxInFlight <= CONCURRENCY, `at most ${CONCURRENCY} at once, saw ${provider.maxInFlight}`);
    // Every (segment, target) pair was asked for exactly once.
    const asked = new Map<string, number>();
    for (const request of provider.requests) {
      const message = userMessage(request);
      for (const target of message.targets) {
        for (const segment of message.segments) asked.set(`${target}|${segment}`, (asked.get(`${target}|${segment}`) ?? 0) + 1);
      }
    }
    assert.equal(asked.size, 3 * PARAGRAPHS.length);
    assert.ok([...asked.values()].every((count) => count === 1));
    // Usage is the sum over the calls made, and the request's access line says how it was spent.
    assert.equal(body.usage.input_tokens, 100 * calls);
    assert.equal(body.usage.output_tokens, 40 * calls);
    const work = lastWork(t);
    assert.deepEqual(
      work && [work.modelCalls, work.inputTokens, work.outputTokens, work.cachedInputTokens],
      [calls, 100 * calls, 40 * calls, 0],
    );
  });

  test('cached prompt tokens the provider reports are logged and charged as the input tokens they are', async () => {
    const echo = echoTranslator({ input: 1200, output: 40 });
    provider.fallback((request, index) => {
      const reply = echo(request, index) as { json: { usage: Record<string, unknown> } };
      reply.json.usage.prompt_tokens_details = { cached_tokens: 1024 };
      return reply as ReturnType<typeof echo>;
    });

    const response = await translate({ content: DOCUMENT, targets: ['de'], format: 'plain' });

    assert.equal(response.statusCode, 200, response.body);
    const calls = provider.requests.length;
    assert.equal(json(response).usage.input_tokens, 1200 * calls);
    assert.equal(lastWork(t)?.cachedInputTokens, 1024 * calls);
  });

  test('calls that split one chunk between target groups send the same prefix: instructions, schema, segments', async () => {
    provider.fallback(echoTranslator({ input: 100, output: 60 }));
    const targets = ['de', 'fr', 'es', 'it', 'nl', 'pl', 'sv', 'da', 'fi', 'cs'];

    const response = await translate({ content: PARAGRAPHS[0], targets, source: 'en', format: 'plain' });

    assert.equal(response.statusCode, 200, response.body);
    assert.ok(provider.requests.length >= 2, `targets split into ${provider.requests.length} calls`);
    const prefixes = new Set(
      provider.requests.map((request) => {
        const text = userText(request);
        return JSON.stringify([request.body.messages[0], request.body.response_format, text.slice(0, text.indexOf('\ntargets: '))]);
      }),
    );
    assert.equal(prefixes.size, 1, 'one prefix for every call');
    const targetLines = provider.requests.map((request) => userMessage(request).targets.join(', '));
    assert.equal(new Set(targetLines).size, provider.requests.length, 'each call has its own targets');
  });

  test('the concurrency cap holds across concurrent requests, and both are served', async () => {
    provider.fallback(echoTranslator({ input: 100, output: 40 }));

    const responses = await Promise.all([
      translate({ content: DOCUMENT, targets: ['de', 'fr'], format: 'plain' }),
      translate({ content: DOCUMENT, targets: ['it', 'es'], format: 'plain' }),
      translate({ content: PARAGRAPHS[3], targets: ['pl'], format: 'plain' }),
    ]);

    for (const response of responses) assert.equal(response.statusCode, 200, response.body);
    assert.equal(json(responses[1]!).translations.es, echoed('es'));
    assert.ok(provider.maxInFlight <= CONCURRENCY, `at most ${CONCURRENCY} at once, saw ${provider.maxInFlight}`);
    assert.equal(provider.maxInFlight, CONCURRENCY, 'and the slots were used');
  });

  test('a request arriving behind a large one gets a slot before the large one has finished', async () => {
    // Slow calls (400 ms more each), so the small request is surely waiting when the first slot frees.
    const echo = echoTranslator({ input: 100, output: 40 });
    provider.fallback((request, index) => ({ ...echo(request, index), delayMs: 400 }));

    const large = translate({ content: DOCUMENT, targets: ['de', 'fr', 'es', 'it'], format: 'plain' });
    await provider.waitForRequests(CONCURRENCY);
    const small = translate({ content: 'A short note.', targets: ['pl'], format: 'plain' });
    const [largeResponse, smallResponse] = await Promise.all([large, small]);

    assert.equal(largeResponse.statusCode, 200, largeResponse.body);
    assert.equal(smallResponse.statusCode, 200, smallResponse.body);
    const index = provider.requests.findIndex((request) => userMessage(request).targets.includes('Polish (pl)'));
    const largeCalls = provider.requests.length - 1;
    // FIFO by call would have sent it last; a fair share sends it with the next free slot.
    assert.ok(index <= CONCURRENCY + 1, `the small request's call was call ${index + 1} of ${largeCalls + 1}`);
    assert.ok(largeCalls > CONCURRENCY + 2, `the large request made ${largeCalls} calls`);
  });

  test('one failing call fails the whole request with translation_error, cancels the others and charges nothing', async () => {
    // The first paragraph's call is refused; every other call never answers on its own.
    provider.fallback((request) =>
      userMessage(request).segments.includes(PARAGRAPHS[0]!) ? { ...errorReply(400), delayMs: 100 } : { hang: true },
    );
    const usedBefore = await tokensUsed();
    const abortsBefore = provider.clientAborts;

    const response = await translate({ content: DOCUMENT, targets: ['de'], format: 'plain' });

    assert.equal(response.statusCode, 500);
    assert.equal(json(response).error, 'translation_error');
    await until(() => provider.clientAborts - abortsBefore === provider.requests.length - 1);
    assert.ok(provider.requests.length >= 2, 'other calls were in flight');
    assert.equal(await tokensUsed(), usedBefore);
  });

  test('a client that disconnects cancels every call of its request', async () => {
    provider.fallback(() => ({ hang: true }));
    const usedBefore = await tokensUsed();
    const abortsBefore = provider.clientAborts;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;

    const client = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/v1/translate',
      headers: { authorization: auth, 'content-type': 'application/json' },
    });
    client.on('error', () => {}); // we hang up on purpose
    client.end(JSON.stringify({ content: DOCUMENT, targets: ['de', 'fr'], format: 'plain' }));
    await provider.waitForRequests(CONCURRENCY);
    client.destroy();

    await until(() => provider.clientAborts - abortsBefore === CONCURRENCY);
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(provider.requests.length, CONCURRENCY, 'no call waiting for a slot was sent after the disconnect');
    assert.equal(provider.inFlight, 0);
    assert.equal(await tokensUsed(), usedBefore);
  });

  test('a batch plans its items together, runs the calls in parallel and answers in request order', async () => {
    provider.fallback(echoTranslator({ input: 100, output: 40 }));
    const items = PARAGRAPHS.map((content, i) => ({ id: `item-${i}`, content, format: 'plain' }));

    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/translate/batch',
      headers: { authorization: auth },
      payload: { items, targets: ['de', 'fr'], memory: false },
    });

    assert.equal(response.statusCode, 200, response.body);
    const body = json(response);
    assert.deepEqual(body.results.map((result: { id: string }) => result.id), items.map((item) => item.id));
    for (const [i, result] of body.results.entries()) {
      assert.equal(result.translations.de, `[de] ${PARAGRAPHS[i]}`);
      assert.equal(result.translations.fr, `[fr] ${PARAGRAPHS[i]}`);
    }
    assert.ok(provider.requests.length < items.length * 2, `${provider.requests.length} calls for ${items.length} items × 2 targets`);
    assert.ok(provider.maxInFlight >= 2, 'the calls ran in parallel');
    assert.equal(body.usage.total_tokens, 140 * provider.requests.length);
  });
});
