import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';
import { FailingEngine, pseudo } from '../helpers/engines.js';
import type { ChunkTranslation, TranslateChunkInput, TranslationEngine } from '../../src/engines/engine.js';

/** Pseudo, but fails any chunk containing the word "poison". */
class PoisonEngine implements TranslationEngine {
  readonly id = 'poison';
  readonly budget = { maxInputTokens: 6000, maxOutputTokens: 16384 };
  calls = 0;
  async translate(input: TranslateChunkInput): Promise<ChunkTranslation> {
    this.calls++;
    if (input.segments.some((s) => s.text.includes('poison'))) return new FailingEngine().translate();
    return pseudo().translate(input);
  }
}

for (const backend of testBackends()) {
  describe(`POST /v1/translate/batch on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let t: TestApp;
    let engine: PoisonEngine;
    let auth: string;
    before(async () => {
      engine = new PoisonEngine();
      t = await startTestApp({ backend, env: { RATE_LIMIT_STORE: 'none' }, engines: { standard: engine, advanced: engine } });
      auth = (await t.key('scale')).auth;
    });
    after(() => t.close());

    const post = (payload: unknown) =>
      t.app.inject({ method: 'POST', url: '/v1/translate/batch', headers: { authorization: auth }, payload: payload as object });

    it('answers results in request order, small items sharing one model call, with summed usage', async () => {
      const items = Array.from({ length: 12 }, (_, i) => ({ id: `item-${i}`, content: `Sentence number ${i}.` }));
      const callsBefore = engine.calls;
      const response = await post({ items, targets: ['fr', 'de'] });
      assert.equal(response.statusCode, 200, response.body);
      const body = json(response);
      assert.deepEqual(Object.keys(body).sort(), ['results', 'usage']);
      assert.deepEqual(body.results.map((r: { id: string }) => r.id), items.map((i) => i.id));
      assert.equal(engine.calls - callsBefore, 1, 'twelve short items are planned into one call');
      for (const result of body.results) {
        assert.deepEqual(Object.keys(result).sort(), ['id', 'translations']);
        assert.deepEqual(Object.keys(result.translations).sort(), ['de', 'fr']);
      }
      assert.equal(body.results[3].translations.fr, 'Šéñţéñçé ñüṁḃéŕ 3.');
      assert.deepEqual(Object.keys(body.usage).sort(), ['cached_segments', 'input_tokens', 'model', 'output_tokens', 'total_tokens']);
      assert.equal(body.usage.total_tokens, body.usage.input_tokens + body.usage.output_tokens);
      assert.equal(body.usage.model, 'standard');
    });

    it('charges the batch\'s usage once to the month', async () => {
      const { auth: fresh } = await t.key('starter');
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/translate/batch',
        headers: { authorization: fresh },
        payload: { items: [{ id: 'a', content: 'One' }, { id: 'b', content: 'Two' }], targets: ['es'] },
      });
      const usage = json(await t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: fresh } }));
      assert.equal(usage.tokens_used, json(response).usage.total_tokens);
    });

    it('detects each item\'s format on its own', async () => {
      const body = json(await post({ items: [{ id: 'j', content: '{"a":"Yes"}' }, { id: 'p', content: 'Yes' }], targets: ['it'] }));
      assert.equal(JSON.parse(body.results[0].translations.it).a, 'Ýéš');
      assert.equal(body.results[1].translations.it, 'Ýéš');
    });

    it('fails the whole request with 500 translation_error, no partial results and no charge, when one item fails', async () => {
      const { auth: fresh } = await t.key('starter');
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/translate/batch',
        headers: { authorization: fresh },
        payload: { items: [{ id: 'ok', content: 'Fine text' }, { id: 'bad', content: 'poison pill' }, { id: 'ok2', content: 'More' }], targets: ['fr'] },
      });
      assert.equal(response.statusCode, 500);
      assert.deepEqual(Object.keys(json(response)).sort(), ['error', 'message']);
      assert.equal(json(response).error, 'translation_error');
      const usage = json(await t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: fresh } }));
      assert.equal(usage.tokens_used, 0);
    });

    const rejects: Array<[string, unknown, string, RegExp]> = [
      ['missing items', { targets: ['fr'] }, 'invalid_request', /items/],
      ['no items', { items: [], targets: ['fr'] }, 'invalid_request', /items/],
      ['101 items', { items: Array.from({ length: 101 }, (_, i) => ({ id: String(i), content: 'x' })), targets: ['fr'] }, 'invalid_request', /100/],
      ['an item without id', { items: [{ content: 'x' }], targets: ['fr'] }, 'invalid_request', /id/],
      ['an empty id', { items: [{ id: '', content: 'x' }], targets: ['fr'] }, 'invalid_request', /id/],
      ['duplicate ids', { items: [{ id: 'a', content: 'x' }, { id: 'a', content: 'y' }], targets: ['fr'] }, 'invalid_request', /unique/],
      ['an empty item content', { items: [{ id: 'a', content: '' }], targets: ['fr'] }, 'invalid_request', /content/],
      ['a non-object item', { items: ['text'], targets: ['fr'] }, 'invalid_request', /items\[0\]/],
      ['an unknown target', { items: [{ id: 'a', content: 'x' }], targets: ['xx'] }, 'invalid_language', /xx/],
      ['a bad item format', { items: [{ id: 'a', content: 'x', format: 'pdf' }], targets: ['fr'] }, 'invalid_format', /items\[0\]\.format/],
      ['items checked before targets', { items: [], targets: 'nope' }, 'invalid_request', /items/],
      ['a bad model', { items: [{ id: 'a', content: 'x' }], targets: ['fr'], model: 'huge' }, 'invalid_request', /model/],
    ];
    for (const [name, payload, code, message] of rejects) {
      it(`answers 400 ${code} for ${name}`, async () => {
        const response = await post(payload);
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(json(response).error, code);
        assert.match(json(response).message, message);
      });
    }

    it('refuses the advanced model on the free tier with 403', async () => {
      const { auth: free } = await t.key('free');
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/translate/batch',
        headers: { authorization: free },
        payload: { items: [{ id: 'a', content: 'x' }], targets: ['fr'], model: 'advanced' },
      });
      assert.equal(response.statusCode, 403);
      assert.equal(json(response).error, 'advanced_not_available');
    });
  });
}
