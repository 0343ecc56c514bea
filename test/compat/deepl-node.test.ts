/**
 * The official DeepL client, deepl-node, drives /deepl over real HTTP against the pseudo
 * engine: what an app built on it gets when its serverUrl is `http://HOST:PORT/deepl`.
 * Glossaries are not here yet (they join in a later pass with issue 14's glossaries).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as deepl from 'deepl-node';
import { pseudoTranslate } from '../../src/engines/pseudo.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';

/** The pseudo engine's translation of `text` into a left-to-right target. */
const pseudo = (text: string): string => pseudoTranslate(text, false);

/** What a pseudo translation reduces to once its marks are removed. */
function unpseudo(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').replace(/[\u202B\u202C]/g, '');
}

for (const backend of testBackends()) {
  describe(`deepl-node against /deepl on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let t: TestApp;
    let serverUrl: string;
    before(async () => {
      t = await startTestApp({ backend, env: { RATE_LIMIT_STORE: 'none', FREE_TIER_MONTHLY_TOKENS: '1000' } });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as { port: number };
      serverUrl = `http://127.0.0.1:${port}/deepl`;
    });
    after(() => t.close());

    const client = async (tier: 'free' | 'growth' = 'growth') =>
      new deepl.Translator((await t.key(tier)).key, { serverUrl, maxRetries: 1, sendPlatformInfo: false });

    it('translates one text, naming the source it was given', async () => {
      const result = await (await client()).translateText('Hello, world!', 'en', 'fr');
      assert.equal(result.text, pseudo('Hello, world!'));
      assert.equal(result.detectedSourceLang, 'en');
      assert.equal(result.billedCharacters, 13);
    });

    it('translates several texts in order into a regional target', async () => {
      const results = await (await client()).translateText(['Save', 'Cancel', 'Open the file'], 'en', 'pt-BR');
      assert.deepEqual(results.map((r) => r.text), ['Save', 'Cancel', 'Open the file'].map(pseudo));
      assert.ok(results.every((r) => r.detectedSourceLang === 'en'));
    });

    it('detects each text\'s source when none is given', async () => {
      const results = await (await client()).translateText(
        ['Der Hund läuft schnell über die grüne Wiese.', 'Le chat dort sur le canapé pendant que la pluie tombe.'],
        null,
        'en-US',
      );
      assert.deepEqual(results.map((r) => r.detectedSourceLang), ['de', 'fr']);
      assert.equal(unpseudo(results[1]!.text), 'Le chat dort sur le canape pendant que la pluie tombe.');
    });

    it('reads zh-HANS as a target and reports model_type_used', async () => {
      const result = await (await client()).translateText('Good morning', 'en', 'zh-HANS', { modelType: 'quality_optimized' });
      assert.equal(result.text, pseudo('Good morning'));
      assert.equal(result.modelTypeUsed, 'quality_optimized');
    });

    it('keeps markup with tag_handling=html, and translate="no" and ignore_tags content verbatim', async () => {
      const html = '<p>Press <b>Save</b> or <span translate="no">Ctrl S</span> in <kbd>Edit menu</kbd>.</p>';
      const result = await (await client()).translateText(html, 'en', 'de', { tagHandling: 'html', ignoreTags: ['kbd'] });
      assert.equal(result.text, `<p>${pseudo('Press ')}<b>${pseudo('Save')}</b>${pseudo(' or ')}<span translate="no">Ctrl S</span>${pseudo(' in ')}<kbd>Edit menu</kbd>.</p>`);
    });

    it('lists source and target languages in DeepL\'s codes', async () => {
      const translator = await client();
      const sources = (await translator.getSourceLanguages()).map((l): string => l.code);
      const targets = (await translator.getTargetLanguages()).map((l): string => l.code);
      assert.equal(sources.length, 36);
      for (const code of ['en', 'pt', 'zh', 'nb', 'de']) assert.ok(sources.includes(code), code);
      for (const code of ['en-US', 'en-GB', 'pt-BR', 'pt-PT', 'zh-HANS', 'zh-HANT', 'de']) assert.ok(targets.includes(code), code);
      assert.ok(!targets.includes('en') && !targets.includes('pt'));
    });

    it('reports usage in characters from the shared grant', async () => {
      const translator = await client('free');
      const before = await translator.getUsage();
      assert.deepEqual([before.character?.count, before.character?.limit], [0, 2000]);
      await translator.translateText('Hello there, friend', 'en', 'fr');
      const usage = await translator.getUsage();
      assert.ok(usage.character!.count > 0, String(usage.character!.count));
      assert.equal(usage.character!.count % 2, 0);
      assert.equal(usage.anyLimitReached(), false);
    });

    it('raises AuthorizationError for a key this service does not know', async () => {
      const translator = new deepl.Translator('not-a-key', { serverUrl, maxRetries: 1 });
      await assert.rejects(translator.translateText('Hello', 'en', 'fr'), deepl.AuthorizationError);
      await assert.rejects(translator.getUsage(), deepl.AuthorizationError);
    });

    it('raises QuotaExceededError once the free grant is spent, and reports the limit reached', async () => {
      const translator = await client('free');
      // ceil(2000 / 4) × 2 = 1000 tokens: more than the 1000-token grant once anything is used.
      await translator.translateText('a '.repeat(400), 'en', 'fr');
      await assert.rejects(translator.translateText('b '.repeat(1000), 'en', 'fr'), deepl.QuotaExceededError);
    });

    it('answers 400 naming the parameter for a bad value, and for glossary_id until glossaries come', async () => {
      const translator = await client();
      await assert.rejects(translator.translateText('Hello', 'en', 'xx-YY' as deepl.TargetLanguageCode), /target_lang/);
      await assert.rejects(
        translator.translateText('Hello', 'en', 'fr', { glossary: 'a-glossary-id' }),
        (error: Error) => error instanceof deepl.DeepLError && /glossary_id/.test(error.message),
      );
    });
  });
}
