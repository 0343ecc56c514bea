/**
 * /deepl as Weblate's DeepL machinery calls it (WeblateOrg/weblate weblate/machinery/deepl.py
 * @ 01c5add9a741963306778566dce8069d66ec68d9): `Authorization: DeepL-Auth-Key <key>`, a JSON
 * body (`json=params`) {text: [..], source_lang, target_lang (upper case, "PT-BR"),
 * formality, tag_handling: "xml", ignore_tags: ["x"], context?, model_type?} whose texts
 * carry its placeholders as `<x id="N"></x>`; languages read with `type=source|target`;
 * glossary-language-pairs read before translating.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pseudoTranslate } from '../../src/engines/pseudo.js';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';

const pseudo = (text: string): string => pseudoTranslate(text, false);

for (const backend of testBackends()) {
  describe(`Weblate's DeepL requests on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let t: TestApp;
    let authorization: string;
    before(async () => {
      t = await startTestApp({ backend, env: { RATE_LIMIT_STORE: 'none' } });
      authorization = `DeepL-Auth-Key ${(await t.key('growth')).key}`;
    });
    after(() => t.close());

    it('translates a JSON batch with xml tag handling, keeping its <x> placeholders', async () => {
      const payload = {
        text: ['Hello <x id="0"></x>, you have <x id="7"></x> new messages', 'Sign out'],
        source_lang: 'EN',
        target_lang: 'PT-BR',
        formality: 'default',
        tag_handling: 'xml',
        ignore_tags: ['x'],
        context: 'A messaging app',
        model_type: 'prefer_quality_optimized',
      };
      const response = await t.app.inject({ method: 'POST', url: '/deepl/v2/translate', headers: { authorization }, payload });
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(json(response), {
        translations: [
          {
            detected_source_language: 'EN',
            text: `${pseudo('Hello ')}<x id="0"></x>${pseudo(', you have ')}<x id="7"></x>${pseudo(' new messages')}`,
            model_type_used: 'quality_optimized',
          },
          { detected_source_language: 'EN', text: pseudo('Sign out'), model_type_used: 'quality_optimized' },
        ],
      });
    });

    it('lists languages by type and answers the glossary pairs', async () => {
      const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization } });
      const sources = json(await get('/deepl/v2/languages?type=source')) as { language: string }[];
      const targets = json(await get('/deepl/v2/languages?type=target')) as { language: string; supports_formality: boolean }[];
      assert.ok(sources.some((l) => l.language === 'EN') && !sources.some((l) => l.language === 'EN-US'));
      assert.ok(targets.some((l) => l.language === 'PT-BR') && targets.every((l) => typeof l.supports_formality === 'boolean'));
      const pairs = json(await get('/deepl/v2/glossary-language-pairs')).supported_languages as { source_lang: string; target_lang: string }[];
      assert.ok(pairs.some((p) => p.source_lang === 'en' && p.target_lang === 'pt'));
      assert.equal(targets.find((l) => l.language === 'DE')?.supports_formality, true);
      assert.equal(targets.find((l) => l.language === 'EN-US')?.supports_formality, false);
    });

    it('answers 400 {message} naming the parameter for a bad tag_handling or formality', async () => {
      for (const [field, value] of [['tag_handling', 'markdown'], ['formality', 'very']] as const) {
        const payload = { text: ['Hi'], target_lang: 'DE', [field]: value };
        const response = await t.app.inject({ method: 'POST', url: '/deepl/v2/translate', headers: { authorization }, payload });
        assert.equal(response.statusCode, 400);
        assert.match(json(response).message, new RegExp(field));
      }
    });
  });
}
