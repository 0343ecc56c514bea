/**
 * Identical segments requested at the same time are translated once (per process):
 * the real app with an OpenAI-compatible model behind it (the fake provider over HTTP,
 * answering slowly enough for requests to overlap), on each backend.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';
import { echoTranslator, errorReply, startFakeProvider, userMessage, type FakeProvider } from '../helpers/fake-provider.js';

const SLOW_MS = 300;

for (const backend of testBackends()) {
  describe(`concurrent identical requests on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let provider: FakeProvider;
    let t: TestApp;
    before(async () => {
      provider = await startFakeProvider();
      t = await startTestApp({
        backend,
        // One call per request: the test counts calls to show the work was done once.
        env: { RATE_LIMIT_STORE: 'none', MODEL_STANDARD: 'openai:fake-model', OPENAI_BASE_URL: provider.baseUrl, ENGINE_CONCURRENCY: '1' },
      });
    });
    after(async () => {
      await t.close();
      await provider.close();
    });
    afterEach(() => provider.reset());

    const slowEcho = () => {
      const echo = echoTranslator({ input: 120, output: 40 });
      provider.fallback((request, index) => ({ ...(echo(request, index) as object), delayMs: SLOW_MS }) as ReturnType<typeof echo>);
    };
    const translate = (auth: string, payload: object) =>
      t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: auth }, payload });

    it('make one model call; the request that waited is charged nothing and gets the same translations', async () => {
      slowEcho();
      const { auth } = await t.key('growth');
      const payload = { content: 'One sentence.\n\nAnother sentence.', targets: ['fr', 'de'], format: 'plain' };
      const [a, b] = await Promise.all([translate(auth, payload), translate(auth, payload)]);
      assert.equal(a.statusCode, 200, a.body);
      assert.equal(b.statusCode, 200, b.body);
      assert.equal(provider.requests.length, 1, 'one model call for both requests');
      assert.deepEqual(json(a).translations, json(b).translations);
      assert.equal(json(a).translations.fr, '[fr] One sentence.\n\n[fr] Another sentence.');
      const usages = [json(a).usage, json(b).usage].sort((x, y) => x.total_tokens - y.total_tokens);
      assert.deepEqual(
        usages.map((usage) => [usage.input_tokens, usage.output_tokens, usage.cached_segments]),
        [
          [0, 0, 4],
          [120, 40, 0],
        ],
      );
    });

    it('share only the segments they have in common', async () => {
      slowEcho();
      const { auth } = await t.key('growth');
      const [a, b] = await Promise.all([
        translate(auth, { content: 'Common line.\n\nOnly in A.', targets: ['fr'], format: 'plain' }),
        translate(auth, { content: 'Common line.\n\nOnly in B.', targets: ['fr'], format: 'plain' }),
      ]);
      assert.equal(a.statusCode, 200, a.body);
      assert.equal(b.statusCode, 200, b.body);
      const sent = provider.requests.flatMap((request) => userMessage(request).segments).sort();
      assert.deepEqual(sent, ['Common line.', 'Only in A.', 'Only in B.']);
      assert.equal(json(a).usage.cached_segments + json(b).usage.cached_segments, 1);
    });

    it('of two users make two model calls: nothing is shared between users, even in flight', async () => {
      slowEcho();
      const alice = await t.key('growth');
      const bob = await t.key('growth');
      const payload = { content: 'Private to each user.', targets: ['fr'], format: 'plain' };
      const [a, b] = await Promise.all([translate(alice.auth, payload), translate(bob.auth, payload)]);
      assert.equal(provider.requests.length, 2);
      assert.equal(json(a).usage.cached_segments, 0);
      assert.equal(json(b).usage.cached_segments, 0);
    });

    it('when the leading request fails, the waiting one translates the segment itself', async () => {
      const { auth } = await t.key('growth');
      provider.reply({ ...(errorReply(400) as object), delayMs: SLOW_MS } as ReturnType<typeof errorReply>);
      slowEcho();
      const payload = { content: 'Fails first, then succeeds.', targets: ['fr'], format: 'plain' };
      const first = translate(auth, payload);
      await provider.waitForRequests(1);
      const second = translate(auth, payload);
      const [a, b] = await Promise.all([first, second]);
      assert.equal(a.statusCode, 500, a.body);
      assert.equal(json(a).error, 'translation_error');
      assert.equal(b.statusCode, 200, b.body);
      assert.equal(json(b).translations.fr, '[fr] Fails first, then succeeds.');
      assert.equal(json(b).usage.cached_segments, 0);
      assert.equal(provider.requests.length, 2);
    });
  });
}
