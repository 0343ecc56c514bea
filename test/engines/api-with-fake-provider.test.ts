/**
 * The real app with MODEL_STANDARD=openai:<model> and OPENAI_BASE_URL pointing at the
 * fake provider: chunking, one call per chunk for all targets, failures as
 * translation_error, the exact provider usage in GET /v1/usage, and a client that
 * disconnects cancelling the model call.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, describe, test } from 'node:test';
import { json, type TestApp } from '../helpers/app.js';
import { resetProvider, startProviderApp, stopProviderApp } from '../helpers/provider-app.js';
import {
  echoTranslator,
  errorReply,
  openaiReply,
  userMessage,
  type FakeProvider,
} from '../helpers/fake-provider.js';

const PARAGRAPHS = [
  'Our support team answers every question within one business day, including weekends and public holidays, and tells you who is looking after your request.',
  'Invoices are sent on the first day of each month and can be downloaded from the billing page at any time, together with a summary of the tokens each project used.',
  'If you cancel your subscription, your projects stay available in read-only mode for another ninety days, so you can export everything you still need.',
];
// Each paragraph is 26–40 o200k tokens, so with MAX_INPUT_TOKENS_PER_CALL=50 no two fit one call.

describe('the API with an OpenAI-compatible model behind it', () => {
  let provider: FakeProvider;
  let t: TestApp;
  let auth: string;

  before(async () => {
    // These tests count calls and charges of the fewest calls the limits allow; with
    // more slots the planner fans out for latency (test/engines/parallel-calls.test.ts).
    ({ provider, t } = await startProviderApp({ MAX_INPUT_TOKENS_PER_CALL: '50', ENGINE_CONCURRENCY: '1' }));
    auth = (await t.key('growth')).auth;
  });
  after(() => stopProviderApp({ provider, t }));
  afterEach(() => resetProvider(provider));

  // These tests count model calls: translation memory (test/memory/) would serve repeated content.
  const translate = (payload: object) =>
    t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: auth }, payload: { ...payload, memory: false } });
  const tokensUsed = async (): Promise<number> =>
    json(await t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: auth } })).tokens_used;

  test('a multi-chunk document makes one call per chunk for all targets and charges the provider usage exactly', async () => {
    provider.fallback(echoTranslator({ input: 111, output: 47 }));
    const usedBefore = await tokensUsed();

    const response = await translate({ content: PARAGRAPHS.join('\n\n'), targets: ['de', 'fr'], source: 'en', format: 'plain' });

    assert.equal(response.statusCode, 200, response.body);
    const body = json(response);
    assert.equal(body.translations.de, PARAGRAPHS.map((p) => `[de] ${p}`).join('\n\n'));
    assert.equal(body.translations.fr, PARAGRAPHS.map((p) => `[fr] ${p}`).join('\n\n'));
    assert.equal(provider.requests.length, 3, 'one call per paragraph-sized chunk');
    for (const request of provider.requests) {
      assert.equal(request.path, '/v1/chat/completions');
      assert.equal(request.body.model, 'fake-model');
      const message = userMessage(request);
      assert.deepEqual(message.targets, ['German (de)', 'French (fr)']);
      assert.equal(message.source, 'English (en)');
      assert.equal(message.segments.length, 1);
    }
    const sent = provider.requests.map((request) => userMessage(request).segments[0]);
    assert.deepEqual(sent.sort(), [...PARAGRAPHS].sort());
    assert.deepEqual(
      { input: body.usage.input_tokens, output: body.usage.output_tokens, total: body.usage.total_tokens },
      { input: 333, output: 141, total: 474 },
    );
    assert.equal((await tokensUsed()) - usedBefore, 474);
  });

  test('repair calls are charged too', async () => {
    provider.reply(
      openaiReply({ de: [] }, { input: 200, output: 3 }),
      openaiReply({ de: ['Hallo Welt'] }, { input: 150, output: 10 }),
    );
    const usedBefore = await tokensUsed();

    const response = await translate({ content: 'Hello world', targets: ['de'], format: 'plain' });

    assert.equal(response.statusCode, 200, response.body);
    assert.equal(json(response).translations.de, 'Hallo Welt');
    assert.equal(json(response).usage.total_tokens, 363);
    assert.deepEqual(userMessage(provider.requests[1]!).fix, [{ lang: 'de', problem: 'expected 1 translation, got 0' }]);
    assert.equal((await tokensUsed()) - usedBefore, 363);
  });

  test('answers that stay invalid fail as translation_error in plain words and charge nothing', async () => {
    provider.fallback(() => openaiReply('Sorry, I can only chat.', { input: 90, output: 6 }));
    const usedBefore = await tokensUsed();

    const response = await translate({ content: 'Hello world', targets: ['de'], format: 'plain' });

    assert.equal(response.statusCode, 500);
    const body = json(response);
    assert.equal(body.error, 'translation_error');
    assert.match(body.message, /the model returned invalid JSON/);
    assert.equal(provider.requests.length, 3);
    assert.equal(await tokensUsed(), usedBefore);
  });

  test('a provider that refuses the credentials fails at once, without provider details', async () => {
    provider.reply(errorReply(401));

    const response = await translate({ content: 'Hello world', targets: ['de', 'fr'], format: 'plain' });

    assert.equal(response.statusCode, 500);
    const body = json(response);
    assert.equal(body.error, 'translation_error');
    assert.doesNotMatch(body.message, /fake|401|HTTP/);
    assert.equal(provider.requests.length, 1);
  });

  test('a synchronous request whose client disconnects cancels its model call', async () => {
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
    client.end(JSON.stringify({ content: 'Hello world', targets: ['de'], format: 'plain' }));
    await provider.waitForRequests(1);
    client.destroy();

    const deadline = Date.now() + 3000;
    while (provider.clientAborts === abortsBefore && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(provider.clientAborts, abortsBefore + 1, 'the in-flight model call was cancelled');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(provider.requests.length, 1, 'and not retried');
    assert.equal(await tokensUsed(), usedBefore);
  });
});
