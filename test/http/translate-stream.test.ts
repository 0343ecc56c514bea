/**
 * POST /v1/translate with Accept: text/event-stream (CONTRACT §7, docs/streaming.md), over
 * real HTTP with an OpenAI-compatible fake model behind the service: each target's document
 * arrives as soon as it is complete while other targets' calls still run; then usage, then
 * done; a failure after the stream started is an `error` event and nothing is charged; a
 * client that goes away cancels the calls still to come. And with the pseudo engine, each
 * streamed document is the input with the pseudo marks removed, byte for byte.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { TranslationEventData, UsageEventData } from '../../src/http/schemas/translate.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { echoTranslator, errorReply, startFakeProvider, targetCodes, userMessage, type FakeProvider, type FakeReply } from '../helpers/fake-provider.js';

// One paragraph of ~60 o200k tokens: with CALL_OUTPUT_BUDGET_TOKENS=100 every target is its own call.
const PARAGRAPH =
  'Our support team answers every question within one business day, including weekends and public holidays, and tells you who is looking after your request and when you will hear back from them.';

interface ServerEvent {
  readonly event: string;
  readonly data: any;
  /** performance.now() when the client read it. */
  readonly at: number;
}

/** Reads Server-Sent Events off a fetch answer as they arrive. */
async function* readEvents(response: Response): AsyncGenerator<ServerEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body!) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const lines = block.split('\n').filter((line) => !line.startsWith(':'));
      if (lines.length === 0) continue;
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7) ?? 'message';
      const data = lines.filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n');
      yield { event, data: JSON.parse(data), at: performance.now() };
    }
  }
}

const ajv = new Ajv2020({ strict: false });
const validTranslation = ajv.compile(TranslationEventData);
const validUsage = ajv.compile(UsageEventData);

describe('streamed translation with a fake model over HTTP', () => {
  let provider: FakeProvider;
  let t: TestApp;
  let base: string;
  let auth: string;

  before(async () => {
    provider = await startFakeProvider();
    t = await startTestApp({
      env: {
        RATE_LIMIT_STORE: 'none',
        MODEL_STANDARD: 'openai:fake-model',
        OPENAI_BASE_URL: provider.baseUrl,
        CALL_OUTPUT_BUDGET_TOKENS: '100',
        ENGINE_CONCURRENCY: '1',
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}/v1`;
  });
  after(async () => {
    await t.close();
    await provider.close();
  });

  const stream = (body: object, signal?: AbortSignal) =>
    fetch(`${base}/translate`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ memory: false, ...body }),
      ...(signal ? { signal } : {}),
    });
  const tokensUsed = async (): Promise<number> =>
    ((await (await fetch(`${base}/usage`, { headers: { authorization: auth } })).json()) as { tokens_used: number }).tokens_used;
  /** Echoes each call after `delayOf(target codes)` ms. */
  const replyAfter = (delayOf: (codes: string[]) => number) => {
    const echo = echoTranslator({ input: 50, output: 40 });
    provider.requests.length = 0;
    provider.fallback((request, index) => ({
      ...(echo(request, index) as Extract<FakeReply, { json: unknown }>),
      delayMs: delayOf(targetCodes(userMessage(request))),
    }));
  };

  test('each target is sent as soon as it is complete, then usage, then done; usage is what was charged', async () => {
    auth = (await t.key('growth')).auth;
    // Calls run one at a time: de answers at once, fr after 1.2 s.
    replyAfter((codes) => (codes.includes('fr') ? 1_200 : 0));
    const response = await stream({ content: PARAGRAPH, targets: ['de', 'fr'] });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    const events: ServerEvent[] = [];
    let frOpenWhenDeArrived = false;
    for await (const event of readEvents(response)) {
      if (event.event === 'translation' && event.data.target === 'de') frOpenWhenDeArrived = provider.inFlight === 1 || provider.requests.length < 2;
      events.push(event);
    }
    assert.deepEqual(events.map((e) => e.event), ['translation', 'translation', 'usage', 'done']);
    assert.deepEqual(events.slice(0, 2).map((e) => e.data.target), ['de', 'fr']);
    assert.ok(frOpenWhenDeArrived, 'de was sent while fr was still being translated');
    assert.ok(events[1]!.at - events[0]!.at >= 900, `fr came ${Math.round(events[1]!.at - events[0]!.at)} ms after de`);
    for (const e of events.slice(0, 2)) {
      assert.ok(validTranslation(e.data), JSON.stringify(validTranslation.errors));
      assert.equal(e.data.text, `[${e.data.target}] ${PARAGRAPH}`);
    }
    assert.ok(validUsage(events[2]!.data), JSON.stringify(validUsage.errors));
    assert.equal(events[2]!.data.total_tokens, 180, 'two calls of 50 + 40');
    assert.deepEqual(events[3]!.data, {});
    assert.equal(await tokensUsed(), 180);
  });

  test('a failure after the stream started is an error event, and nothing is charged', async () => {
    auth = (await t.key('growth')).auth;
    provider.requests.length = 0;
    const echo = echoTranslator({ input: 50, output: 40 });
    provider.fallback((request, index) => (targetCodes(userMessage(request)).includes('fr') ? errorReply(400) : echo(request, index)));
    const response = await stream({ content: PARAGRAPH, targets: ['de', 'fr'] });
    assert.equal(response.status, 200);
    const events: ServerEvent[] = [];
    for await (const event of readEvents(response)) events.push(event);
    assert.deepEqual(events.map((e) => e.event), ['translation', 'error']);
    assert.equal(events[0]!.data.target, 'de');
    assert.deepEqual(Object.keys(events[1]!.data).sort(), ['error', 'message']);
    assert.equal(events[1]!.data.error, 'translation_error');
    assert.equal(await tokensUsed(), 0);
  });

  test('a client that goes away cancels the model calls still to come, and is not charged', async () => {
    auth = (await t.key('growth')).auth;
    // Every call takes 2 s, one at a time: five targets would take 10 s.
    replyAfter(() => 2_000);
    const targets = ['de', 'fr', 'es', 'it', 'nl'];
    const leave = new AbortController();
    const response = await stream({ content: PARAGRAPH, targets }, leave.signal);
    assert.equal(response.status, 200);
    await provider.waitForRequests(1);
    leave.abort();
    await response.body?.cancel().catch(() => {});
    // Longer than the rest of the work would take if it went on.
    for (let waited = 0; provider.clientAborts === 0 && waited < 3_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    assert.equal(provider.clientAborts, 1, 'the call in flight was cancelled');
    await new Promise((r) => setTimeout(r, 2_500));
    assert.equal(provider.requests.length, 1, `calls stopped: ${provider.requests.length} of ${targets.length} made`);
    assert.equal(provider.inFlight, 0);
    assert.equal(await tokensUsed(), 0);
  });

  test('refusals before the work starts are the usual JSON errors', async () => {
    auth = (await t.key('free')).auth;
    const advanced = await stream({ content: 'Hello', targets: ['de'], model: 'advanced' });
    assert.equal(advanced.status, 403);
    assert.match(advanced.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(((await advanced.json()) as { error: string }).error, 'advanced_not_available');
    const invalid = await stream({ content: '', targets: ['de'] });
    assert.equal(invalid.status, 400);
    assert.equal(((await invalid.json()) as { error: string }).error, 'invalid_request');
  });
});

describe('streamed translation with the pseudo engine', () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_STORE: 'none' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}/v1`;
  });
  after(() => t.close());

  test('every target of a markdown document streams back the input byte for byte once the marks are removed; without the header nothing changes', async () => {
    const { auth } = await t.key('growth');
    const content = '# Release notes\n\n- Faster *streaming*\n- `code` stays\n\n| a | b |\n|---|---|\n| one | two |\n';
    const targets = ['de', 'ar', 'ja', 'he'];
    const response = await fetch(`${base}/translate`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ content, targets }),
    });
    const events: ServerEvent[] = [];
    for await (const event of readEvents(response)) events.push(event);
    const translations = events.filter((e) => e.event === 'translation');
    assert.deepEqual(translations.map((e) => e.data.target).sort(), [...targets].sort());
    for (const { data } of translations) {
      assert.notEqual(data.text, content);
      assert.equal(data.text.normalize('NFD').replace(/[\u0300-\u036f\u202b\u202c]/g, ''), content);
    }
    assert.deepEqual(events.slice(-2).map((e) => e.event), ['usage', 'done']);

    const plain = await fetch(`${base}/translate`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ content, targets }),
    });
    const answer = (await plain.json()) as { translations: Record<string, string> };
    for (const { data } of translations) assert.equal(answer.translations[data.target], data.text);
  });
});
