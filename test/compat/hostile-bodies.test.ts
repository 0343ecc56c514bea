/**
 * Malformed and hostile bodies on the compat APIs: each is answered in the API's own error
 * shape with a 4xx that names the problem, never a 500, and charges nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';

const FORM = 'application/x-www-form-urlencoded';

for (const backend of testBackends()) {
  describe(`hostile bodies on the compat APIs on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let t: TestApp;
    let key: string;
    before(async () => {
      t = await startTestApp({ backend, env: { RATE_LIMIT_STORE: 'none' } });
      key = (await t.key('growth')).key;
    });
    after(() => t.close());

    const deepl = (payload: string | object, contentType?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/deepl/v2/translate',
        headers: { authorization: `DeepL-Auth-Key ${key}`, ...(contentType ? { 'content-type': contentType } : {}) },
        payload,
      });
    const libre = (payload: string | object, contentType?: string) =>
      t.app.inject({ method: 'POST', url: '/libretranslate/translate', headers: contentType ? { 'content-type': contentType } : {}, payload });

    it('DeepL: each bad body is a 400 {message} naming what is wrong', async () => {
      const cases: [string | object, string | undefined, RegExp][] = [
        [{ text: { a: 1 }, target_lang: 'DE' }, undefined, /"text"/],
        [{ text: ['ok', 7], target_lang: 'DE' }, undefined, /text\[1\]/],
        [{ text: [], target_lang: 'DE' }, undefined, /"text"/],
        [{ text: Array.from({ length: 51 }, () => 'x'), target_lang: 'DE' }, undefined, /at most 50/],
        [{ text: ['Hi'] }, undefined, /target_lang/],
        ['text=Hi&target_lang=DE&target_lang=FR', FORM, /target_lang/],
        ['text=Hi&target_lang=DE&tag_handling=html&ignore_tags=a%3Cb', FORM, /ignore_tags/],
        ['text=Hi&target_lang=DE&show_billed_characters=maybe', FORM, /show_billed_characters/],
        ['text=Hi&target_lang=DE&model_type=fastest', FORM, /model_type/],
        ['__proto__=x&text=Hi', FORM, /target_lang/],
        ['[1,2]', 'application/json', /form-encoded or a JSON object/],
        ['text=Hi', 'text/plain', /form-encoded/],
        ['{"text": ["Hi"', 'application/json', /JSON/],
      ];
      for (const [payload, contentType, message] of cases) {
        const response = await deepl(payload, contentType);
        assert.equal(response.statusCode, 400, `${JSON.stringify(payload)}: ${response.body}`);
        assert.match(json(response).message, message, JSON.stringify(payload));
      }
    });

    it('DeepL glossaries: each bad body or id is a 400/404 {message} naming what is wrong, and nothing is stored', async () => {
      const glossaries = (method: 'POST' | 'GET' | 'DELETE', url: string, payload?: string | object, contentType?: string) =>
        t.app.inject({
          method,
          url: `/deepl/v2/glossaries${url}`,
          headers: { authorization: `DeepL-Auth-Key ${key}`, ...(contentType ? { 'content-type': contentType } : {}) },
          ...(payload !== undefined ? { payload } : {}),
        });
      const base = { name: 'n', source_lang: 'EN', target_lang: 'DE', entries: 'a\tb' };
      const cases: [string | object, string | undefined, RegExp][] = [
        [{ ...base, name: ['x', 'y'] }, undefined, /"name"/],
        [{ ...base, name: '' }, undefined, /"name"/],
        [{ ...base, entries: { a: 'b' } }, undefined, /"entries"/],
        [{ ...base, entries: '\n\n' }, undefined, /no entry/],
        [{ ...base, entries: 'a\tb\tc' }, undefined, /line 1/],
        [{ ...base, entries: 'ok\tfine\n\tb' }, undefined, /line 3|line 2/],
        [{ ...base, entries: `a\t${'b'.repeat(201)}` }, undefined, /line 1.*200/],
        [{ ...base, entries: 'a<x1/>\tb' }, undefined, /line 1/],
        [{ ...base, entries_format: 'xlsx' }, undefined, /entries_format/],
        [{ ...base, source_lang: 'KLINGON' }, undefined, /source_lang/],
        ['name=n&source_lang=EN&target_lang=DE&entries=a%09b&entries=c%09d', FORM, /"entries"/],
        ['[1]', 'application/json', /form-encoded or a JSON object/],
      ];
      for (const [payload, contentType, message] of cases) {
        const response = await glossaries('POST', '', payload, contentType);
        assert.equal(response.statusCode, 400, `${JSON.stringify(payload)}: ${response.body}`);
        assert.match(json(response).message, message, JSON.stringify(payload));
      }
      assert.deepEqual(json(await glossaries('GET', '')), { glossaries: [] });
      for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000', '%00', 'x'.repeat(500)]) {
        for (const [method, url] of [['GET', `/${id}`], ['GET', `/${id}/entries`], ['DELETE', `/${id}`]] as const) {
          const response = await glossaries(method, url);
          assert.equal(response.statusCode, 404, `${method} ${url}: ${response.body}`);
          assert.equal(typeof json(response).message, 'string');
        }
      }
      const translate = await deepl({ text: ['Hi'], source_lang: 'EN', target_lang: 'DE', glossary_id: { id: 1 } });
      assert.equal(translate.statusCode, 400);
      assert.match(json(translate).message, /glossary_id/);
      // A JSON body creates as a form body does (entries_format defaults to tsv).
      const created = await glossaries('POST', '', { name: 'json', source_lang: 'en', target_lang: 'de', entries: 'a\tb\r\nc\td' });
      assert.equal(created.statusCode, 201, created.body);
      assert.deepEqual({ ...(json(created) as object), glossary_id: 'id', creation_time: 'time' }, {
        glossary_id: 'id', name: 'json', ready: true, source_lang: 'en', target_lang: 'de', creation_time: 'time', entry_count: 2,
      });
    });

    it('DeepL: a free key asking for quality_optimized is 400, not 403 (which clients read as a bad key)', async () => {
      const free = (await t.key('free')).key;
      const response = await t.app.inject({
        method: 'POST',
        url: '/deepl/v2/translate',
        headers: { authorization: `DeepL-Auth-Key ${free}` },
        payload: { text: ['Hi'], target_lang: 'DE', model_type: 'quality_optimized' },
      });
      assert.equal(response.statusCode, 400);
      assert.match(json(response).message, /advanced/);
    });

    it('DeepL: an unknown path is 404 {message}, documents and /v2/write included', async () => {
      for (const url of ['/deepl/v2/document', '/deepl/v2/write/rephrase', '/deepl/v3/glossaries']) {
        const response = await t.app.inject({ method: 'POST', url, headers: { authorization: `DeepL-Auth-Key ${key}` } });
        assert.equal(response.statusCode, 404, url);
        assert.equal(typeof json(response).message, 'string');
      }
    });

    it('LibreTranslate: each bad body is a 400 {error}', async () => {
      const cases: [string | object, string | undefined, RegExp][] = [
        [{ q: 5, source: 'en', target: 'fr', api_key: key }, undefined, /q must be/],
        [{ q: ['a', null], source: 'en', target: 'fr', api_key: key }, undefined, /q\[1\]/],
        [{ q: 'a', source: 'en', target: 'fr', alternatives: 'two', api_key: key }, undefined, /alternatives/],
        [{ q: 'a', source: ['en'], target: 'fr', api_key: key }, undefined, /source must be a string/],
        [{ source: 'en', target: 'fr', api_key: key }, undefined, /missing q/],
        [`q=a&source=en&target=fr&api_key=${key}&format=pdf`, FORM, /format is not supported/],
        ['[1]', 'application/json', /API key/],
      ];
      for (const [payload, contentType, message] of cases) {
        const response = await libre(payload, contentType);
        assert.equal(response.statusCode, 400, `${JSON.stringify(payload)}: ${response.body}`);
        assert.deepEqual(Object.keys(json(response)), ['error']);
        assert.match(json(response).error, message, JSON.stringify(payload));
      }
    });
  });
}
