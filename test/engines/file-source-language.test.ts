/**
 * A locale file that names its source language (contract §6: gettext `Language:`, XLIFF
 * `source-language` / `srcLang`, a Rails root key, ARB `@@locale`, a String Catalog's
 * `sourceLanguage`) is the source when the request omits it (decision 0101): the model's
 * `source:` line says so, and the answer reports it with confidence 1. The text is
 * English a detector would call English with confidence, so the file, not detection,
 * must be what decided. Read from the requests the OpenAI-compatible engine sends to a
 * fake provider over HTTP, through the real app.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { json } from '../helpers/app.js';
import { echoTranslator, userMessage } from '../helpers/fake-provider.js';
import { useProviderApp } from '../helpers/provider-app.js';

const TEXT = 'The dog runs quickly over the green meadow behind the old house.';

// Each file's text its own (a number on the end), so no answer comes from the memory of another.
const FILES: ReadonlyArray<readonly [name: string, format: string, content: string]> = [
  ['po', 'po', `msgid ""\nmsgstr ""\n"Language: de\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "${TEXT} 1"\nmsgstr ""\n`],
  ['xliff 1.2', 'xliff', `<?xml version="1.0"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n  <file source-language="de" datatype="plaintext" original="x">\n    <body>\n      <trans-unit id="a">\n        <source>${TEXT} 2</source>\n      </trans-unit>\n    </body>\n  </file>\n</xliff>\n`],
  ['xliff 2.0', 'xliff', `<?xml version="1.0"?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="de">\n  <file id="f">\n    <unit id="a">\n      <segment>\n        <source>${TEXT} 3</source>\n      </segment>\n    </unit>\n  </file>\n</xliff>\n`],
  ['yaml', 'yaml', `de:\n  story: ${TEXT} 4\n`],
  ['arb', 'arb', `{\n  "@@locale": "de",\n  "story": "${TEXT} 5"\n}\n`],
  ['xcstrings', 'xcstrings', `{\n  "sourceLanguage" : "de",\n  "strings" : {\n    "${TEXT} 6" : {\n\n    }\n  },\n  "version" : "1.0"\n}`],
];

describe('the source language a locale file names', () => {
  const app = useProviderApp({ fallback: echoTranslator({ input: 10, output: 10 }) });

  const post = async (url: string, payload: object) => {
    const response = await app.t.app.inject({ method: 'POST', url, headers: { authorization: app.auth }, payload });
    assert.equal(response.statusCode, 200, response.body);
    return json(response);
  };

  test('without the file saying so, the English text is detected as English', async () => {
    const body = await post('/v1/translate', { content: TEXT, targets: ['fr'] });
    assert.equal(body.usage.detected_source, 'en');
    assert.equal(userMessage(app.provider.requests[0]!).source, 'English (en)');
  });

  for (const [name, format, content] of FILES) {
    test(`${name}: the file's language is the source when the request has none`, async () => {
      const body = await post('/v1/translate', { content, targets: ['fr'], format });
      assert.equal(body.usage.detected_source, 'de', JSON.stringify(body.usage));
      assert.equal(body.usage.source_confidence, 1);
      assert.equal(app.provider.requests.length, 1);
      assert.equal(userMessage(app.provider.requests[0]!).source, 'German (de)');
    });
  }

  test('detected when the format is omitted too, and in a batch', async () => {
    const [, , po] = FILES[0]!;
    const detected = await post('/v1/translate', { content: po, targets: ['fr'] });
    assert.equal(detected.usage.detected_source, 'de');
    app.provider.requests.length = 0;
    const batch = await post('/v1/translate/batch', { items: FILES.map(([, format, content], i) => ({ id: String(i), content, format })), targets: ['es'] });
    assert.equal(batch.results.length, FILES.length);
    assert.ok(app.provider.requests.length > 0);
    for (const request of app.provider.requests) assert.equal(userMessage(request).source, 'German (de)');
  });

  test('a named source wins over the file', async () => {
    const [, , po] = FILES[0]!;
    const body = await post('/v1/translate', { content: po, targets: ['fr'], source: 'en', format: 'po' });
    assert.equal(body.usage.detected_source, undefined);
    assert.equal(userMessage(app.provider.requests[0]!).source, 'English (en)');
  });

  test('a translated po catalog: its Language: names the msgstrs, not the msgids, and is no hint', async () => {
    const po = `msgid ""\nmsgstr ""\n"Language: de\\n"\n\nmsgid "${TEXT} 7"\nmsgstr "Der Hund läuft schnell über die grüne Wiese."\n`;
    const body = await post('/v1/translate', { content: po, targets: ['fr'], format: 'po' });
    assert.equal(body.usage.detected_source, 'en');
    assert.ok(body.usage.source_confidence < 1);
  });

  test('a po catalog whose msgstrs copy their msgids is of the source language: Language: is the hint', async () => {
    const po = `msgid ""\nmsgstr ""\n"Language: de\\n"\n\nmsgid "${TEXT} 8"\nmsgstr "${TEXT} 8"\n`;
    const body = await post('/v1/translate', { content: po, targets: ['fr'], format: 'po' });
    assert.equal(body.usage.detected_source, 'de');
  });

  test('a Rails root key of a language the API does not list is no hint: the text is detected', async () => {
    const body = await post('/v1/translate', { content: `ca:\n  story: ${TEXT}\n`, targets: ['fr'], format: 'yaml' });
    assert.equal(body.usage.detected_source, 'en');
    assert.match(body.translations.fr, /^fr:\n/);
  });
});
