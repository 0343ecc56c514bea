/**
 * Rate limits and grants apply to the compat APIs exactly as to /v1: one per-user window
 * shared with /v1 (a request on any of them spends the same allowance), the same X-RateLimit
 * headers and Retry-After, and the free tier's pre-check — answered in each API's terms
 * (DeepL 429 / 456 {message}, LibreTranslate 429 / 403 {error}).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as deepl from 'deepl-node';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';

const T0 = Date.parse('2026-11-21T10:00:00.000Z');
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

for (const backend of testBackends()) {
  describe(`rate limits and grants on the compat APIs on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let now = T0;
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ backend, clock: () => now, env: { FREE_TIER_MONTHLY_TOKENS: '1000' } });
    });
    after(() => t.close());

    const v1 = (key: string) =>
      t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: `Bearer ${key}` }, payload: { content: 'Hi', targets: ['fr'] } });
    const deeplTranslate = (key: string, text = 'Hi') =>
      t.app.inject({
        method: 'POST',
        url: '/deepl/v2/translate',
        headers: { authorization: `DeepL-Auth-Key ${key}`, ...FORM },
        payload: new URLSearchParams({ text, target_lang: 'FR', source_lang: 'EN' }).toString(),
      });
    const libre = (key: string, q = 'Hi') =>
      t.app.inject({ method: 'POST', url: '/libretranslate/translate', payload: { q, source: 'en', target: 'fr', api_key: key } });

    it('shares one window with /v1: the sixth free request of a minute is 429 with Retry-After on every API', async () => {
      now = T0;
      const { key } = await t.key('free');
      const accepted = [await v1(key), await v1(key), await deeplTranslate(key), await deeplTranslate(key), await libre(key)];
      for (const [i, response] of accepted.entries()) {
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.headers['x-ratelimit-limit'], '5');
        assert.equal(response.headers['x-ratelimit-remaining'], String(4 - i));
      }
      now = T0 + 10_000;
      const refusedDeepl = await deeplTranslate(key);
      assert.equal(refusedDeepl.statusCode, 429);
      assert.equal(refusedDeepl.headers['retry-after'], '50');
      assert.match(json(refusedDeepl).message, /5 requests a minute/);
      const refusedLibre = await libre(key);
      assert.equal(refusedLibre.statusCode, 429);
      assert.equal(refusedLibre.headers['retry-after'], '50');
      assert.match(json(refusedLibre).error, /^Slowdown: /);
      assert.equal((await v1(key)).statusCode, 429);
      // Usage and languages do not spend the allowance.
      const usage = await t.app.inject({ method: 'GET', url: '/deepl/v2/usage', headers: { authorization: `DeepL-Auth-Key ${key}` } });
      assert.equal(usage.statusCode, 200);
    });

    it('deepl-node raises TooManyRequestsError on the 429', async () => {
      now = T0 + 120_000;
      const { key } = await t.key('free');
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const serverUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}/deepl`;
      for (let i = 0; i < 5; i++) assert.equal((await v1(key)).statusCode, 200);
      const translator = new deepl.Translator(key, { serverUrl, maxRetries: 1, minTimeout: 1000 });
      await assert.rejects(translator.translateText('Hi', 'en', 'fr'), deepl.TooManyRequestsError);
    });

    it('a spent free grant is 456 on DeepL and 403 on LibreTranslate, charging nothing', async () => {
      now = T0 + 240_000;
      const { key } = await t.key('free');
      // ceil(1800 / 4) × 2 = 900 of 1000 tokens reserved and (under pseudo) fewer used; the next big one cannot fit.
      assert.equal((await deeplTranslate(key, 'a '.repeat(900))).statusCode, 200);
      const usedBefore = json(await t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: `Bearer ${key}` } })).tokens_used;
      const deeplRefused = await deeplTranslate(key, 'b '.repeat(900));
      assert.equal(deeplRefused.statusCode, 456, deeplRefused.body);
      assert.equal(typeof json(deeplRefused).message, 'string');
      const libreRefused = await libre(key, 'c '.repeat(900));
      assert.equal(libreRefused.statusCode, 403, libreRefused.body);
      assert.deepEqual(Object.keys(json(libreRefused)), ['error']);
      const usedAfter = json(await t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: `Bearer ${key}` } })).tokens_used;
      assert.equal(usedAfter, usedBefore);
    });

    it('a DeepL body over 2 MiB is 413 with a message', async () => {
      now = T0 + 360_000;
      const { key } = await t.key('growth');
      const response = await deeplTranslate(key, 'x'.repeat(2 * 1024 * 1024 + 10));
      assert.equal(response.statusCode, 413);
      assert.equal(typeof json(response).message, 'string');
    });
  });
}
