/**
 * The service with MODEL_STANDARD=apertium, over HTTP end to end, with Apertium's real
 * output: /v1/translate (HTML, JSON with placeholders, a detected source, a stream),
 * /v1/translate/batch, a /v1 job run by a real worker, DeepL's and LibreTranslate's
 * routes, the 400 for a direction no installed pair covers, and a crashed Apertium
 * answered 500 translation_error. Answers are judged
 * against the source (same tags and attributes, same placeholders, keys, URLs), never
 * against a stored Apertium answer, and must differ from the source (it translated).
 */
import { testTokenizer } from '../helpers/tokenizer.js';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { ApertiumEngine } from '../../src/engines/apertium/apertium-engine.js';
import { apertiumDataDir, installedPairs } from '../../src/engines/apertium/create.js';
import { createJobWorker } from '../../src/run/start-up.js';
import { apertiumSkip } from '../helpers/apertium.js';
import { json, startTestApp, type TestApp } from '../helpers/app.js';

/** The tags of an HTML text, with the values of translatable attributes (`title`) left out. */
const tagsOf = (html: string): string[] => (html.match(/<[^>]+>/g) ?? []).map((tag) => tag.replace(/ title="[^"]*"/, ' title'));
const placeholdersOf = (text: string): string[] => (text.match(/\{[a-z_]+\}/g) ?? []).sort();

describe('the apertium engine over HTTP', { skip: apertiumSkip() }, () => {
  let t: TestApp;
  let auth: string;
  let key: string;

  before(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_STORE: 'none', MODEL_STANDARD: 'apertium', MODEL_ADVANCED: 'apertium', ENGINE_CONCURRENCY: '2' } });
    ({ auth, key } = await t.key('growth'));
  });
  after(async () => {
    await t?.close();
  });

  const post = (url: string, payload: object, headers: Record<string, string> = { authorization: auth }) =>
    t.app.inject({ method: 'POST', url, headers, payload });

  test('/v1/translate: HTML keeps every tag and attribute while the words are Spanish, the bold moving with its word', async () => {
    const content = '<p>I bought a <b>red</b> car.</p><p>Read <a href="https://example.com/guide?x=1" title="The guide">the guide</a> before you install <code>npm</code>.</p>';
    const response = await post('/v1/translate', { content, targets: ['es'], source: 'en', format: 'html', memory: false });
    assert.equal(response.statusCode, 200, response.body);
    const es: string = json(response).translations.es;
    assert.deepEqual(tagsOf(es), tagsOf(content));
    assert.match(es, /coche <b>rojo<\/b>\./, 'the adjective follows the noun in Spanish and takes its tag along');
    assert.match(es, /<code>npm<\/code>/);
    assert.match(es, /title="La guía"/, 'a translatable attribute is translated');
    assert.doesNotMatch(es, /\bcar\b|\bbought\b/);
  });

  test('/v1/translate: JSON keys, ICU placeholders and the document stay; a named model is apertium too', async () => {
    const content = JSON.stringify({ greeting: 'Hello, {name}! You have {count} new messages.', farewell: 'See you tomorrow.' });
    const response = await post('/v1/translate', { content, targets: ['es'], source: 'en', format: 'json', model: 'advanced', memory: false });
    assert.equal(response.statusCode, 200, response.body);
    const es = JSON.parse(json(response).translations.es);
    assert.deepEqual(Object.keys(es), ['greeting', 'farewell']);
    assert.deepEqual(placeholdersOf(es.greeting), ['{count}', '{name}']);
    assert.match(es.greeting, /Hola/);
    assert.notEqual(es.farewell, 'See you tomorrow.');
  });

  test('/v1/translate without source: the detected language picks the pair', async () => {
    const response = await post('/v1/translate', {
      content: 'The weather is very nice today and we are going to the beach with our friends.',
      targets: ['es'],
      memory: false,
    });
    assert.equal(response.statusCode, 200, response.body);
    const body = json(response);
    assert.equal(body.usage.detected_source, 'en');
    assert.match(body.translations.es, /playa/);
  });

  test('a target no installed pair covers is a 400 unsupported_language_pair before any work, naming what is installed', async () => {
    const before = json(await t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: auth } })).tokens_used;
    const response = await post('/v1/translate', { content: 'Hello', targets: ['es', 'de'], source: 'en', memory: false });
    // Without a source, text whose language cannot be told is refused the same way.
    const undetected = await post('/v1/translate', { content: '12345', targets: ['es'], memory: false });
    assert.equal(undetected.statusCode, 400, undetected.body);
    assert.match(json(undetected).message, /needs the source language/);
    assert.equal(response.statusCode, 400, response.body);
    const body = json(response);
    assert.equal(body.error, 'unsupported_language_pair');
    assert.match(body.message, /en to de/);
    assert.match(body.message, /es/);
    const jobs = await post('/v1/jobs', { content: 'Hello', targets: ['ja'], source: 'en' });
    assert.equal(jobs.statusCode, 400, jobs.body);
    assert.equal(json(jobs).error, 'unsupported_language_pair');
    const after = json(await t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: auth } })).tokens_used;
    assert.equal(after, before, 'nothing charged');
  });

  test('a streamed request: refused as JSON before its stream starts, else Apertium\'s answer as a translation event', async () => {
    const headers = { authorization: auth, 'content-type': 'application/json', accept: 'text/event-stream' };
    const refused = await t.app.inject({ method: 'POST', url: '/v1/translate', headers, payload: { content: '12345', targets: ['es'], memory: false } });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.equal(json(refused).error, 'unsupported_language_pair');
    const streamed = await t.app.inject({
      method: 'POST',
      url: '/v1/translate',
      headers,
      payload: { content: 'The house is big.', targets: ['es'], source: 'en', memory: false },
    });
    assert.equal(streamed.statusCode, 200, streamed.body);
    assert.match(streamed.headers['content-type'] as string, /text\/event-stream/);
    assert.match(streamed.body, /event: translation\ndata: .*casa/);
  });

  test('/v1/languages stays the API list; /libretranslate/languages lists what Apertium can do', async () => {
    const languages = json(await t.app.inject({ method: 'GET', url: '/v1/languages' }));
    assert.equal((Array.isArray(languages) ? languages : languages.languages).length, 43);
    const libre: Array<{ code: string; targets: string[] }> = json(await t.app.inject({ method: 'GET', url: '/libretranslate/languages' }));
    const en = libre.find((language) => language.code === 'en');
    assert.ok(en, 'English is a source');
    assert.ok(en.targets.includes('es'));
    assert.ok(!en.targets.includes('de'));
    assert.equal(libre.find((language) => language.code === 'de'), undefined, 'no pair has German');
  });

  test('/v1/translate/batch: every item translated, markdown structure kept', async () => {
    const items = [
      { id: 'a', content: '# Getting started\n\nInstall the **new** package with `npm install` and [read the docs](https://example.com/docs).', format: 'markdown' },
      { id: 'b', content: 'The house is big.' },
    ];
    const response = await post('/v1/translate/batch', { items, targets: ['es'], source: 'en', memory: false });
    assert.equal(response.statusCode, 200, response.body);
    const results: Array<{ id: string; translations: { es: string } }> = json(response).results;
    const markdown = results.find((r) => r.id === 'a')!.translations.es;
    assert.match(markdown, /^# /);
    assert.match(markdown, /`npm install`/);
    assert.match(markdown, /\]\(https:\/\/example\.com\/docs\)/);
    assert.match(markdown, /\*\*[^*]+\*\*/);
    assert.match(results.find((r) => r.id === 'b')!.translations.es, /casa/);
  });

  test('a /v1 job is translated by a real worker', async () => {
    const submitted = await post('/v1/jobs', { content: 'The cat sleeps on the table.', targets: ['es'], source: 'en', memory: false });
    assert.equal(submitted.statusCode, 202, submitted.body);
    const worker = createJobWorker(t.services);
    const completed = once(worker, 'job:complete');
    await worker.start();
    try {
      await completed;
    } finally {
      await worker.stop(5_000);
    }
    const job = json(await t.app.inject({ method: 'GET', url: `/v1/jobs/${json(submitted).job_id}`, headers: { authorization: auth } }));
    assert.equal(job.status, 'completed', JSON.stringify(job));
    assert.match(JSON.stringify(job), /gato/);
  });

  test('DeepL route: XML tag handling keeps the tags around translated words', async () => {
    const response = await post(
      '/deepl/v2/translate',
      { text: ['I bought a <b>red</b> car.', 'Good morning'], source_lang: 'EN', target_lang: 'ES', tag_handling: 'xml' },
      { authorization: `DeepL-Auth-Key ${key}` },
    );
    assert.equal(response.statusCode, 200, response.body);
    const [first, second] = json(response).translations as Array<{ text: string }>;
    assert.match(first!.text, /<b>rojo<\/b>/);
    assert.match(second!.text, /Buenos/);
  });

  test('DeepL route: /v2/languages lists what the installed pairs reach, with no formality', async () => {
    const get = (type: string) => t.app.inject({ method: 'GET', url: `/deepl/v2/languages?type=${type}`, headers: { authorization: `DeepL-Auth-Key ${key}` } });
    const sources: Array<{ language: string }> = json(await get('source'));
    const targets: Array<{ language: string; supports_formality: boolean }> = json(await get('target'));
    assert.ok(sources.some((l) => l.language === 'EN') && !sources.some((l) => l.language === 'DE'));
    assert.ok(targets.some((l) => l.language === 'ES') && !targets.some((l) => l.language === 'DE'));
    assert.ok(targets.every((l) => l.supports_formality === false));
  });

  test('LibreTranslate route: translates, and refuses a target with no pair', async () => {
    const ok = await post('/libretranslate/translate', { q: 'The book is on the table.', source: 'en', target: 'es', api_key: key }, {});
    assert.equal(ok.statusCode, 200, ok.body);
    assert.match(json(ok).translatedText, /libro/);
    const refused = await post('/libretranslate/translate', { q: 'Hello', source: 'en', target: 'de', api_key: key }, {});
    assert.equal(refused.statusCode, 400, refused.body);
    assert.match(json(refused).error, /no language pair installed for en to de/);
  });
});

describe('a crashed Apertium under a request', { skip: apertiumSkip() }, () => {
  let t: TestApp;
  let engine: ApertiumEngine;

  before(async () => {
    engine = new ApertiumEngine({ pairs: installedPairs(), dataDir: apertiumDataDir(), budget: { maxInputTokens: 100_000, maxOutputTokens: 100_000 }, timeoutMs: 20_000, concurrency: 1, tokenizer: testTokenizer });
    t = await startTestApp({ env: { RATE_LIMIT_STORE: 'none' }, engines: { standard: engine, advanced: engine } });
  });
  after(async () => {
    engine?.close();
    await t?.close();
  });

  test('is answered 500 translation_error, not a hang, and the next request is translated by a new pipeline', async () => {
    const { auth } = await t.key('growth');
    const post = (content: string) =>
      t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: auth }, payload: { content, targets: ['es'], source: 'en', memory: false } });
    assert.equal((await post('The house is big.')).statusCode, 200);
    const pipeline = engine.pipelines('eng-spa')[0]!;
    const long = Array.from({ length: 400 }, (_, i) => `Paragraph ${i}: the long road goes on and on past the river and the old mill.`).join('\n\n');
    const pending = post(long);
    while (pipeline.inFlight === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    process.kill(-pipeline.pid!, 'SIGKILL');
    const failed = await pending;
    assert.equal(failed.statusCode, 500, failed.body);
    assert.equal(json(failed).error, 'translation_error');
    const again = await post('The house is big.');
    assert.equal(again.statusCode, 200, again.body);
    assert.match(json(again).translations.es, /casa/);
  });
});
