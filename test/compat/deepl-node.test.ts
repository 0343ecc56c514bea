/**
 * The official DeepL client, deepl-node, drives /deepl over real HTTP against the pseudo
 * engine: what an app built on it gets when its serverUrl is `http://HOST:PORT/deepl`.
 * Glossaries are this service's own, seen as DeepL's one-pair glossaries (decision 0033).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as deepl from 'deepl-node';
import { pseudoTranslate } from '../../src/engines/pseudo.js';
import { createGlossary, getGlossary } from '../../src/glossaries/service.js';
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

    it('answers 400 naming the parameter for a bad value', async () => {
      const translator = await client();
      await assert.rejects(translator.translateText('Hello', 'en', 'xx-YY' as deepl.TargetLanguageCode), /target_lang/);
      await assert.rejects(translator.translateText('Hello', 'en', 'fr', { formality: 'very' as deepl.Formality }), /formality/);
    });

    describe('glossaries', () => {
      it('creates, lists, gets and reads back the entries of a glossary', async () => {
        const translator = await client();
        const before = Date.now();
        const entries = new deepl.GlossaryEntries({ entries: { account: 'Konto', invoice: 'Rechnung' } });
        const created = await translator.createGlossary('Billing terms', 'en', 'de', entries);
        assert.equal(created.name, 'Billing terms');
        assert.equal(created.ready, true);
        assert.equal(created.sourceLang, 'en');
        assert.equal(created.targetLang, 'de');
        assert.equal(created.entryCount, 2);
        assert.ok(created.creationTime.getTime() >= before - 1000 && created.creationTime.getTime() <= Date.now() + 1000);
        assert.deepEqual(await translator.getGlossary(created.glossaryId), created);
        const listed = await translator.listGlossaries();
        assert.deepEqual(listed.filter((g) => g.glossaryId === created.glossaryId), [created]);
        assert.deepEqual((await translator.getGlossaryEntries(created)).entries(), { account: 'Konto', invoice: 'Rechnung' });
      });

      it('creates from CSV with quoted fields and answers the entries as TSV without being asked', async () => {
        const { key } = await t.key('growth');
        const translator = new deepl.Translator(key, { serverUrl, maxRetries: 1, sendPlatformInfo: false });
        const created = await translator.createGlossaryWithCsv('UI', 'en', 'fr', Buffer.from('account,compte\n"Save, then close",Enregistrer et fermer\n\n"The ""Pro"" plan",offre Pro,en,fr\n'));
        assert.equal(created.entryCount, 3);
        // deepl-node sends no Accept header for the entries; neither does this request.
        const response = await fetch(`${serverUrl}/v2/glossaries/${created.glossaryId}/entries`, { headers: { authorization: `DeepL-Auth-Key ${key}` } });
        assert.equal(response.status, 200);
        assert.match(response.headers.get('content-type') ?? '', /^text\/tab-separated-values/);
        assert.equal(await response.text(), 'account\tcompte\nSave, then close\tEnregistrer et fermer\nThe "Pro" plan\toffre Pro');
        await assert.rejects((await client()).getGlossaryEntries(created.glossaryId), deepl.GlossaryNotFoundError, "another user's glossary is not found");
      });

      it('translates with a glossary: its terms exactly, a base target serving its regions', async () => {
        const translator = await client();
        const toGerman = await translator.createGlossary('de', 'en', 'de', new deepl.GlossaryEntries({ entries: { account: 'Konto' } }));
        const result = await translator.translateText('Open your account', 'en', 'de', { glossary: toGerman });
        assert.equal(result.text, `${pseudo('Open your ')}Konto`);
        const toEnglish = await translator.createGlossary('en', 'de', 'en', new deepl.GlossaryEntries({ entries: { Konto: 'account' } }));
        const regional = await translator.translateText(['Das Konto', 'Ein Konto'], 'de', 'en-US', { glossary: toEnglish.glossaryId });
        assert.deepEqual(regional.map((r) => r.text), [`${pseudo('Das ')}account`, `${pseudo('Ein ')}account`]);
      });

      it('refuses a glossary whose languages are not the request\'s, and one without source_lang, naming the parameter', async () => {
        const { key, auth } = await t.key('growth');
        const translator = new deepl.Translator(key, { serverUrl, maxRetries: 1, sendPlatformInfo: false });
        const glossary = await translator.createGlossary('g', 'en', 'de', new deepl.GlossaryEntries({ entries: { file: 'Datei' } }));
        await assert.rejects(translator.translateText('file', 'en', 'fr', { glossary }), (error: Error) => {
          assert.ok(error instanceof deepl.DeepLError && !(error instanceof deepl.GlossaryNotFoundError));
          assert.match(error.message, /target_lang/);
          return true;
        });
        // deepl-node checks source_lang itself; a client that does not gets DeepL's 400.
        const response = await fetch(`${serverUrl}/v2/translate`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ text: 'file', target_lang: 'DE', glossary_id: glossary.glossaryId }),
        });
        assert.equal(response.status, 400);
        assert.match(((await response.json()) as { message: string }).message, /source_lang/);
      });

      it('deletes a glossary (204), after which it is not found anywhere', async () => {
        const translator = await client();
        const glossary = await translator.createGlossary('gone', 'en', 'it', new deepl.GlossaryEntries({ entries: { file: 'file' } }));
        await translator.deleteGlossary(glossary);
        await assert.rejects(translator.getGlossary(glossary.glossaryId), deepl.GlossaryNotFoundError);
        await assert.rejects(translator.deleteGlossary(glossary.glossaryId), deepl.GlossaryNotFoundError);
        assert.ok(!(await translator.listGlossaries()).some((g) => g.glossaryId === glossary.glossaryId));
        await assert.rejects(translator.translateText('file', 'en', 'it', { glossary }), /not found|glossary/i);
      });

      it('shows a /v1 glossary for one target as a DeepL glossary and hides one for several targets', async () => {
        const { key, userId } = await t.key('growth');
        const translator = new deepl.Translator(key, { serverUrl, maxRetries: 1, sendPlatformInfo: false });
        // Made as POST /v1/glossaries makes them (the same service and validation).
        const create = async (entries: object[], doNotTranslate: string[] = []) =>
          (await createGlossary(t.services, userId, { name: 'v1', source: 'en', entries, do_not_translate: doNotTranslate })).id;
        const single = await create([{ term: 'invoice', translations: { 'pt-BR': 'fatura' } }], ['Acme Cloud']);
        const several = await create([{ term: 'invoice', translations: { de: 'Rechnung', fr: 'facture' } }]);
        const info = await translator.getGlossary(single);
        assert.deepEqual([info.sourceLang, info.targetLang, info.entryCount], ['en', 'pt-br', 2]);
        assert.deepEqual((await translator.getGlossaryEntries(single)).entries(), { invoice: 'fatura', 'Acme Cloud': 'Acme Cloud' });
        assert.deepEqual((await translator.listGlossaries()).map((g) => g.glossaryId), [single]);
        await assert.rejects(translator.getGlossary(several), deepl.GlossaryNotFoundError);
        await assert.rejects(translator.deleteGlossary(several), deepl.GlossaryNotFoundError);
        assert.equal((await getGlossary(t.services, userId, several)).entries.length, 1, 'still there for /v1');
      });

      it('answers bad glossary bodies with 400 naming the parameter or the line', async () => {
        const translator = await client();
        const entries = new deepl.GlossaryEntries({ entries: { a: 'b' } });
        await assert.rejects(translator.createGlossary('x', 'en', 'xx' as deepl.LanguageCode, entries), /target_lang/);
        await assert.rejects(translator.createGlossary('x', 'en', 'en', entries), /different languages/);
        await assert.rejects(translator.createGlossaryWithCsv('x', 'en', 'de', Buffer.from('a,b\n"open,b\n')), /line 2/);
        await assert.rejects(translator.createGlossaryWithCsv('x', 'en', 'de', Buffer.from('a,b\nA,c\n')), /line 2/);
        await assert.rejects(translator.createGlossaryWithCsv('x', 'en', 'de', Buffer.from('a,b,en,fr\n')), /line 1/);
      });

      it('lists the language pairs of every two different base languages', async () => {
        const pairs = await (await client()).getGlossaryLanguagePairs();
        assert.equal(pairs.length, 36 * 35);
        assert.ok(pairs.some((p) => p.sourceLang === 'en' && p.targetLang === 'de'));
        assert.ok(!pairs.some((p) => p.sourceLang === p.targetLang || p.targetLang.includes('-')));
      });
    });
  });
}
