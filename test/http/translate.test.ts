import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pseudoTranslate } from '../../src/engines/pseudo.js';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';

/** Strips the pseudo engine's marks: what a pseudo translation must reduce to. */
function unpseudo(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').replace(/[\u202B\u202C]/g, '');
}

for (const backend of testBackends()) {
  describe(`POST /v1/translate on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let t: TestApp;
    let auth: string;
    before(async () => {
      t = await startTestApp({ backend, env: { RATE_LIMIT_STORE: 'none' } });
      auth = (await t.key('growth')).auth;
    });
    after(() => t.close());

    const post = (payload: unknown, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: auth, ...headers }, payload: payload as string });

    it('translates into every target with exactly the requested keys and a usage block', async () => {
      const response = await post({ content: 'Hello, world!', targets: ['fr', 'de', 'ar'], format: 'plain', source: 'en' });
      assert.equal(response.statusCode, 200, response.body);
      const body = json(response);
      assert.deepEqual(Object.keys(body).sort(), ['translations', 'usage']);
      assert.deepEqual(Object.keys(body.translations).sort(), ['ar', 'de', 'fr']);
      assert.equal(body.translations.fr, 'Ĥéļļö, ŵöŕļḋ!');
      assert.equal(body.translations.ar, '\u202BĤéļļö, ŵöŕļḋ!\u202C');
      assert.deepEqual(Object.keys(body.usage).sort(), ['cached_segments', 'input_tokens', 'model', 'output_tokens', 'total_tokens']);
      assert.equal(body.usage.model, 'standard');
      assert.ok(body.usage.input_tokens > 0 && body.usage.output_tokens > 0);
      assert.equal(body.usage.total_tokens, body.usage.input_tokens + body.usage.output_tokens);
    });

    it('keeps plain text line breaks and blank lines exactly', async () => {
      const content = 'First line\nsecond line\n\n\nNew paragraph  \n  indented\r\nwindows line\n';
      const response = await post({ content, targets: ['es'], format: 'plain' });
      assert.equal(response.statusCode, 200, response.body);
      const translated = json(response).translations.es as string;
      assert.equal(unpseudo(translated), content);
      assert.equal(translated.split('\n').length, content.split('\n').length);
      assert.notEqual(translated, content);
    });

    it('reports detected_format and detection_confidence only when format was omitted', async () => {
      const detected = json(await post({ content: '# Title\n\nSome **bold** text and a [link](https://x.y).', targets: ['fr'] }));
      assert.equal(detected.usage.detected_format, 'markdown');
      assert.ok(detected.usage.detection_confidence >= 0 && detected.usage.detection_confidence <= 1);
      const given = json(await post({ content: '# Title\n\nSome **bold** text.', targets: ['fr'], format: 'markdown' }));
      assert.equal('detected_format' in given.usage, false);
      assert.equal('detection_confidence' in given.usage, false);
    });

    it('detects JSON and translates only string values', async () => {
      const content = '{"title": "Save changes", "count": 3, "url": "https://example.com/a"}';
      const body = json(await post({ content, targets: ['de'] }));
      assert.equal(body.usage.detected_format, 'json');
      const parsed = JSON.parse(body.translations.de);
      assert.equal(parsed.count, 3);
      assert.equal(parsed.url, 'https://example.com/a');
      assert.equal(unpseudo(parsed.title), 'Save changes');
      assert.notEqual(parsed.title, 'Save changes');
    });

    it('echoes the caller\'s spelling of target codes, matched case-insensitively', async () => {
      const body = json(await post({ content: 'Hi', targets: ['FR', 'pt-br'], format: 'plain' }));
      assert.deepEqual(Object.keys(body.translations).sort(), ['FR', 'pt-br']);
    });

    it('returns whitespace-only content unchanged and charges nothing for it', async () => {
      const body = json(await post({ content: '  \n\n\t ', targets: ['fr'] }));
      assert.equal(body.translations.fr, '  \n\n\t ');
      assert.equal(body.usage.total_tokens, 0);
    });

    it('treats optional fields sent as null as omitted', async () => {
      const response = await post({ content: 'Hi', targets: ['fr'], format: null, source: null, model: null });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(json(response).usage.model, 'standard');
      assert.equal(json(response).usage.detected_format, 'plain');
    });

    it('accepts 36 targets', async () => {
      const languages = json<{ languages: { code: string }[] }>(await t.app.inject({ method: 'GET', url: '/v1/languages' })).languages;
      const targets = languages.slice(0, 36).map((l) => l.code);
      const body = json(await post({ content: 'Hi', targets }));
      assert.equal(Object.keys(body.translations).length, 36);
    });

    it('serves the advanced model to paid tiers', async () => {
      const response = await post({ content: 'Hi', targets: ['it'], model: 'advanced' });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(json(response).usage.model, 'advanced');
    });

    const rejects: Array<[string, unknown, number, string, RegExp?]> = [
      ['missing content', { targets: ['fr'] }, 400, 'invalid_request', /content/],
      ['empty content', { content: '', targets: ['fr'] }, 400, 'invalid_request', /content/],
      ['non-string content', { content: 42, targets: ['fr'] }, 400, 'invalid_request', /content/],
      ['missing targets', { content: 'x' }, 400, 'invalid_request', /targets/],
      ['empty targets', { content: 'x', targets: [] }, 400, 'invalid_request', /targets/],
      ['a non-array targets', { content: 'x', targets: 'fr' }, 400, 'invalid_request', /targets/],
      ['a non-string target', { content: 'x', targets: ['fr', 7] }, 400, 'invalid_request', /targets/],
      ['a duplicate target', { content: 'x', targets: ['fr', 'de'] .concat(['FR']) }, 400, 'invalid_request', /more than once/],
      ['37 targets', { content: 'x', targets: Array.from({ length: 37 }, (_, i) => `x${String.fromCharCode(97 + (i % 26))}${i}`) }, 400, 'invalid_request', /36/],
      ['an unknown target', { content: 'x', targets: ['fr', 'xx'] }, 400, 'invalid_language', /xx/],
      ['an unknown source', { content: 'x', targets: ['fr'], source: 'qq' }, 400, 'invalid_language', /qq/],
      ['a non-string source', { content: 'x', targets: ['fr'], source: 5 }, 400, 'invalid_request', /source/],
      ['an unsupported format', { content: 'x', targets: ['fr'], format: 'docx' }, 400, 'invalid_format'],
      ['an unknown model', { content: 'x', targets: ['fr'], model: 'turbo' }, 400, 'invalid_request', /model/],
      ['format json with content that is not JSON', { content: '{"a": ', targets: ['fr'], format: 'json' }, 400, 'invalid_request', /JSON/],
    ];
    for (const [name, payload, status, code, message] of rejects) {
      it(`answers ${status} ${code} for ${name}`, async () => {
        const response = await post(payload);
        assert.equal(response.statusCode, status, response.body);
        assert.deepEqual(Object.keys(json(response)).sort(), ['error', 'message']);
        assert.equal(json(response).error, code);
        if (message) assert.match(json(response).message, message);
      });
    }

    it('answers 400 invalid_request for malformed JSON, a non-object body and a wrong content type', async () => {
      for (const [payload, headers] of [
        ['{"content": "x", ', { 'content-type': 'application/json' }],
        ['[1,2]', { 'content-type': 'application/json' }],
        ['"text"', { 'content-type': 'application/json' }],
        ['content=x', { 'content-type': 'application/x-www-form-urlencoded' }],
        ['hello', { 'content-type': 'text/plain' }],
        ['', { 'content-type': 'application/json' }],
      ] as const) {
        const response = await post(payload, headers);
        assert.equal(response.statusCode, 400, `${payload}: ${response.body}`);
        assert.equal(json(response).error, 'invalid_request');
      }
    });

    it('answers 413 payload_too_large over 2 MiB, and accepts a body just under', async () => {
      const envelope = JSON.stringify({ content: '', targets: ['fr'], format: 'plain' });
      const fill = (bytes: number) => JSON.stringify({ content: 'a'.repeat(bytes - envelope.length), targets: ['fr'], format: 'plain' });
      const over = await post(fill(2 * 1024 * 1024 + 1), { 'content-type': 'application/json' });
      assert.equal(over.statusCode, 413);
      assert.equal(json(over).error, 'payload_too_large');
      const under = await post(fill(2 * 1024 * 1024), { 'content-type': 'application/json' });
      assert.equal(under.statusCode, 200, under.body.slice(0, 300));
    });

    describe('validation order', () => {
      const cases: Array<[string, unknown, string, RegExp]> = [
        ['content before targets', { content: '', targets: ['zz'] }, 'invalid_request', /content/],
        ['targets shape before codes', { content: 'x', targets: ['zz', 3] }, 'invalid_request', /targets\[1\]/],
        ['targets codes before source', { content: 'x', targets: ['zz'], source: 'yy' }, 'invalid_language', /zz/],
        ['source before format', { content: 'x', targets: ['fr'], source: 'yy', format: 'doc' }, 'invalid_language', /yy/],
        ['format before model', { content: 'x', targets: ['fr'], format: 'doc', model: 'x' }, 'invalid_format', /format/],
      ];
      for (const [name, payload, code, message] of cases) {
        it(name, async () => {
          const response = await post(payload);
          assert.equal(json(response).error, code, response.body);
          assert.match(json(response).message, message);
        });
      }
    });
  });
}
