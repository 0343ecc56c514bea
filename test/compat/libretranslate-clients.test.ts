/**
 * /libretranslate driven over real HTTP with the exact requests the tools that speak
 * LibreTranslate send, read from their source (repository, file, commit):
 * - Weblate, WeblateOrg/weblate weblate/machinery/libretranslate.py @ 037eee0bd4fe023918f039fe2c6160ac43618d1d,
 *   download_translations: a form body (requests' `data=`) {api_key, q, source, target}
 *   POSTed to MT_LIBRETRANSLATE_API_URL + "translate" (the URL ends in "/"); download_languages
 *   reads `code` of GET "languages".
 * - wagtail-localize, wagtail/wagtail-localize src/wagtail_localize/machine_translators/libretranslate.py
 *   @ 5aa51f47e73b71aa2410076aa1580080c2e156f2, LibreTranslator.translate (lines 30-42): JSON
 *   {q: [strings], source, target (locale bases), api_key, format: "html"}; zips `translatedText`.
 * - Mastodon, mastodon/mastodon app/lib/translation_service/libre_translate.rb
 *   @ 0486db9f4ebcd2289b211dd43412d356e6bdfa39, #request: JSON {q, source (blank → "auto"),
 *   target, format: "html", api_key (nil when unset → null)}; 403 → QuotaExceededError,
 *   429 → TooManyRequestsError.
 * - i18n-ally, lokalise/i18n-ally src/translators/engines/libretranslate.ts
 *   @ 4c504c93cec6c4697134eca379f1476d0eb1c9f6, translate(): axios JSON {q, source: "auto",
 *   target: the editor's locale ("zh-CN"), format: "html"}, no key field; the key rides in
 *   the API root's user-info, which axios sends as `Authorization: Basic`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pseudoTranslate } from '../../src/engines/pseudo.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';

const pseudo = (text: string): string => pseudoTranslate(text, false);

for (const backend of testBackends()) {
  describe(`LibreTranslate clients against /libretranslate on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let t: TestApp;
    let base: string;
    let key: string;
    before(async () => {
      t = await startTestApp({ backend, env: { RATE_LIMIT_STORE: 'none' } });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}/libretranslate`;
      key = (await t.key('growth')).key;
    });
    after(() => t.close());

    const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

    it('Weblate: a form body with api_key, q, source and target', async () => {
      const form = new URLSearchParams({ api_key: key, q: 'Save the file', source: 'en', target: 'de' });
      const response = await fetch(`${base}/translate`, { method: 'POST', body: form });
      assert.equal(response.headers.get('content-type')?.split(';')[0], 'application/json');
      assert.deepEqual(await response.json(), { translatedText: pseudo('Save the file') });
    });

    it('Weblate: languages list every code with its targets, base codes included', async () => {
      const languages = (await (await fetch(`${base}/languages`)).json()) as { code: string; name: string; targets: string[] }[];
      const codes = languages.map((l) => l.code);
      for (const code of ['zh', 'pt', 'nb', 'pt-BR', 'zh-TW']) assert.ok(codes.includes(code), code);
      const english = languages.find((l) => l.code === 'en')!;
      assert.equal(english.name, 'English');
      assert.ok(english.targets.includes('de') && !english.targets.includes('en'));
    });

    it('a form body with a repeated q takes the first, as LibreTranslate does', async () => {
      const form = new URLSearchParams([['api_key', key], ['q', 'First'], ['q', 'Second'], ['source', 'en'], ['target', 'fr']]);
      const response = await fetch(`${base}/translate`, { method: 'POST', body: form });
      assert.deepEqual(await response.json(), { translatedText: pseudo('First') });
    });

    it('wagtail-localize: an array q with html format answers an array in order', async () => {
      const q = ['<p>Welcome <b>home</b></p>', 'Read more'];
      const response = await postJson('/translate', { q, source: 'en', target: 'fr', api_key: key, format: 'html' });
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { translatedText: [`<p>${pseudo('Welcome ')}<b>${pseudo('home')}</b></p>`, pseudo('Read more')] });
    });

    it('Mastodon: source "auto" answers detectedLanguage in percent', async () => {
      const q = '<p>Der Hund läuft schnell über die grüne Wiese.</p>';
      const response = await postJson('/translate', { q, source: 'auto', target: 'en', format: 'html', api_key: key });
      const body = (await response.json()) as { translatedText: string; detectedLanguage: { confidence: number; language: string } };
      assert.equal(body.translatedText, `<p>${pseudo('Der Hund läuft schnell über die grüne Wiese.')}</p>`);
      assert.equal(body.detectedLanguage.language, 'de');
      assert.ok(body.detectedLanguage.confidence > 0 && body.detectedLanguage.confidence <= 100);
    });

    it('Mastodon: api_key null answers 400 naming the missing key, an unknown key 403', async () => {
      const missing = await postJson('/translate', { q: 'Hi', source: 'auto', target: 'fr', format: 'html', api_key: null });
      assert.equal(missing.status, 400);
      assert.match(((await missing.json()) as { error: string }).error, /API key/);
      const unknown = await postJson('/translate', { q: 'Hi', source: 'auto', target: 'fr', format: 'html', api_key: 'nope' });
      assert.equal(unknown.status, 403);
      assert.deepEqual(Object.keys((await unknown.json()) as object), ['error']);
    });

    it('i18n-ally: a raw locale target and the key as the password of Basic auth', async () => {
      const authorization = `Basic ${Buffer.from(`key:${key}`).toString('base64')}`;
      const response = await postJson('/translate', { q: 'Open settings', source: 'auto', target: 'zh-CN', format: 'html' }, { authorization });
      assert.equal(response.status, 200);
      const body = (await response.json()) as { translatedText: string; detectedLanguage: { language: string } };
      assert.equal(body.translatedText, pseudo('Open settings'));
    });

    it('refuses an unknown target and format with 400 {"error"}', async () => {
      const target = await postJson('/translate', { q: 'Hi', source: 'en', target: 'xx', api_key: key });
      assert.equal(target.status, 400);
      assert.match(((await target.json()) as { error: string }).error, /"xx" is not supported/);
      const format = await postJson('/translate', { q: 'Hi', source: 'en', target: 'fr', format: 'pdf', api_key: key });
      assert.equal(format.status, 400);
      const noSource = await postJson('/translate', { q: 'Hi', target: 'fr', api_key: key });
      assert.deepEqual(await noSource.json(), { error: 'Invalid request: missing source parameter' });
    });

    it('detect answers a list of {confidence, language}; frontend/settings answers without a key', async () => {
      const detect = await postJson('/detect', { q: 'Dziękuję bardzo za pomoc, to było bardzo miłe.', api_key: key });
      const [first] = (await detect.json()) as { confidence: number; language: string }[];
      assert.equal(first!.language, 'pl');
      const settings = (await (await fetch(`${base}/frontend/settings`)).json()) as Record<string, unknown>;
      assert.equal(settings.keyRequired, true);
      assert.equal(settings.apiKeys, true);
    });

    it('leaves /v1 JSON only: a form body there is 400', async () => {
      const v1 = base.replace('/libretranslate', '/v1');
      const response = await fetch(`${v1}/translate`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: new URLSearchParams({ content: 'Hi', targets: 'fr' }) });
      assert.equal(response.status, 400);
    });
  });
}
