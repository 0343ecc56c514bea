/**
 * formality and context reach the model's instructions, from /v1 and from /deepl, and
 * both are part of the translation-memory key: the real app with an OpenAI-compatible
 * model at the fake provider, over HTTP between processes' sockets (inject for /v1,
 * deepl-node for /deepl).
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, afterEach, before, describe, test } from 'node:test';
import * as deepl from 'deepl-node';
import { createJobWorker } from '../../src/run/start-up.js';
import { json, type TestApp } from '../helpers/app.js';
import { resetProvider, startProviderApp, stopProviderApp } from '../helpers/provider-app.js';
import { echoTranslator, userMessage, type FakeProvider } from '../helpers/fake-provider.js';

describe('formality and context with a model behind the API', () => {
  let provider: FakeProvider;
  let t: TestApp;
  let auth: string;
  let translator: deepl.Translator;

  before(async () => {
    ({ provider, t } = await startProviderApp());
    const key = await t.key('growth');
    auth = key.auth;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    translator = new deepl.Translator(key.key, { serverUrl: `http://127.0.0.1:${port}/deepl`, maxRetries: 0, sendPlatformInfo: false });
  });
  after(() => stopProviderApp({ provider, t }));
  afterEach(() => resetProvider(provider));

  const translate = (payload: object) => t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: auth }, payload });

  test('deepl-node formality and context arrive as the formality and context lines', async () => {
    provider.fallback(echoTranslator({ input: 20, output: 10 }));
    const context = 'Button label in the "Account" dialog.\nShort: it sits beside "Cancel".';
    const result = await translator.translateText('Save changes', 'en', 'de', { formality: 'more', context });
    assert.equal(result.text, '[de] Save changes');
    assert.equal(provider.requests.length, 1);
    const message = userMessage(provider.requests[0]!);
    assert.equal(message.formality, 'formal');
    assert.equal(message.context, context);
    assert.deepEqual(message.segments, ['Save changes']);
  });

  test('prefer_less is informal where the target has formal address and absent where it has none', async () => {
    provider.fallback(echoTranslator({ input: 20, output: 10 }));
    await translator.translateText('Open your inbox', 'en', 'fr', { formality: 'prefer_less' });
    await translator.translateText('Open your inbox', 'de', 'en-GB', { formality: 'prefer_less' });
    assert.equal(provider.requests.length, 2);
    assert.equal(userMessage(provider.requests[0]!).formality, 'informal');
    assert.equal(userMessage(provider.requests[1]!).formality, undefined, 'English has no formal address: no line');
  });

  test('formality "more" for a target without formal address is DeepL\'s 400, before any model call', async () => {
    await assert.rejects(translator.translateText('Hello', 'de', 'en-US', { formality: 'more' }), (error: Error) => {
      assert.ok(error instanceof deepl.DeepLError);
      assert.match(error.message, /formality/);
      return true;
    });
    assert.equal(provider.requests.length, 0);
  });

  test('memory is not shared across formality or context, and is shared when they repeat', async () => {
    provider.fallback(echoTranslator({ input: 20, output: 10 }));
    const body = { content: 'Please sign in to continue.', targets: ['de'], source: 'en', format: 'plain' };
    const formal = json(await translate({ ...body, formality: 'more' }));
    const informal = json(await translate({ ...body, formality: 'less' }));
    const formalAgain = json(await translate({ ...body, formality: 'more' }));
    const withContext = json(await translate({ ...body, formality: 'more', context: 'Shown on the checkout page.' }));
    const plain = json(await translate(body));
    assert.equal(formal.usage.cached_segments, 0);
    assert.equal(informal.usage.cached_segments, 0, 'an informal request is not served the formal answer');
    assert.equal(formalAgain.usage.cached_segments, 1);
    assert.equal(withContext.usage.cached_segments, 0, 'another context is another translation');
    assert.equal(plain.usage.cached_segments, 0);
    assert.deepEqual(
      provider.requests.map((request) => [userMessage(request).formality, userMessage(request).context]),
      [['formal', undefined], ['informal', undefined], ['formal', 'Shown on the checkout page.'], [undefined, undefined]],
    );
  });

  test('a /v1 job keeps them until its worker makes the call', async () => {
    provider.fallback(echoTranslator({ input: 20, output: 10 }));
    const submitted = await t.app.inject({
      method: 'POST',
      url: '/v1/jobs',
      headers: { authorization: auth },
      payload: { content: 'Your order has shipped.', targets: ['es'], source: 'en', formality: 'less', context: 'Push notification', memory: false },
    });
    assert.equal(submitted.statusCode, 202, submitted.body);
    const worker = createJobWorker(t.services);
    const completed = once(worker, 'job:complete');
    await worker.start();
    try {
      await completed;
    } finally {
      await worker.stop(5_000);
    }
    assert.equal(provider.requests.length, 1);
    assert.equal(userMessage(provider.requests[0]!).formality, 'informal');
    assert.equal(userMessage(provider.requests[0]!).context, 'Push notification');
  });

  test('/v1 batch carries them too; bad values answer 400 naming the field', async () => {
    provider.fallback(echoTranslator({ input: 20, output: 10 }));
    const batch = await t.app.inject({
      method: 'POST',
      url: '/v1/translate/batch',
      headers: { authorization: auth },
      payload: { items: [{ id: 'a', content: 'Welcome back' }], targets: ['ja'], source: 'en', formality: 'prefer_more', context: 'Greeting', memory: false },
    });
    assert.equal(batch.statusCode, 200, batch.body);
    assert.equal(userMessage(provider.requests[0]!).formality, 'formal');
    assert.equal(userMessage(provider.requests[0]!).context, 'Greeting');
    for (const [payload, field] of [
      [{ formality: 'very' }, 'formality'],
      [{ formality: 'less', targets: ['de', 'en-US'] }, 'formality'],
      [{ context: 42 }, 'context'],
      [{ context: 'x'.repeat(4001) }, 'context'],
    ] as const) {
      const response = await translate({ content: 'Hi', targets: ['de'], ...payload });
      assert.equal(response.statusCode, 400, JSON.stringify(payload));
      assert.equal(json(response).error, 'invalid_request');
      assert.match(json(response).message, new RegExp(field));
    }
  });
});
