/**
 * The locale file formats through the real app (docs/contract.md §6): `po`, `properties`,
 * `yaml`, `xliff`, Android `strings.xml`, Flutter `arb` and Apple's `strings`, `stringsdict` and `xcstrings` are accepted by /translate, /translate/batch, /jobs and the
 * estimate, detected when `format` is omitted, and a file that does not parse as its
 * format is 400 invalid_request naming the line.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';

const FILES = {
  po: 'msgid ""\nmsgstr ""\n"Language: en\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n#. The checkout button\nmsgid "Pay"\nmsgstr ""\n\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] ""\n',
  properties: '# Checkout\ncheckout.pay_button=Pay\ncheckout.cancel=Cancel\n',
  yaml: 'en:\n  checkout:\n    pay_button: Pay\n    cancel: Cancel\n',
  xliff: '<?xml version="1.0"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n  <file source-language="en" datatype="plaintext" original="x">\n    <body>\n      <trans-unit id="pay">\n        <source>Pay</source>\n      </trans-unit>\n    </body>\n  </file>\n</xliff>\n',
  strings: '/* The checkout button */\n"checkout.pay" = "Pay";\n"checkout.cancel" = "Cancel";\n',
  stringsdict:
    '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n\t<key>pay</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>Pay %#@n@</string>\n\t\t<key>n</key>\n\t\t<dict>\n\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>d</string>\n\t\t\t<key>one</key>\n\t\t\t<string>%d item</string>\n\t\t\t<key>other</key>\n\t\t\t<string>%d items</string>\n\t\t</dict>\n\t</dict>\n</dict>\n</plist>\n',
  android: '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <!-- The checkout button -->\n    <string name="pay">Pay</string>\n    <plurals name="files">\n        <item quantity="one">%d file</item>\n        <item quantity="other">%d files</item>\n    </plurals>\n</resources>\n',
  arb: '{\n  "@@locale": "en",\n  "pay": "Pay",\n  "@pay": {\n    "description": "The checkout button"\n  },\n  "files": "{count, plural, one{{count} file} other{{count} files}}"\n}\n',
  xcstrings: '{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "Pay" : {\n      "comment" : "The checkout button"\n    }\n  },\n  "version" : "1.0"\n}',
} as const;

for (const backend of testBackends()) {
  describe(`locale file formats over HTTP on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let t: TestApp;
    let auth: string;
    before(async () => {
      t = await startTestApp({ backend, env: { RATE_LIMIT_STORE: 'none' } });
      auth = (await t.key('growth')).auth;
    });
    after(() => t.close());

    const post = (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, headers: { authorization: auth }, payload: payload as string });

    for (const [format, content] of Object.entries(FILES)) {
      it(`translates ${format} named or detected, with the same answer`, async () => {
        const named = await post('/v1/translate', { content, targets: ['ru'], format });
        assert.equal(named.statusCode, 200, named.body);
        const detected = await post('/v1/translate', { content, targets: ['ru'] });
        assert.equal(detected.statusCode, 200, detected.body);
        assert.equal(json(detected).usage.detected_format ?? json(detected).detected_format, format);
        assert.equal(json(detected).translations.ru, json(named).translations.ru);
        // (An ASCII-only properties file gets `\u1e56…` for Ṗ…, as Java 8 reads it.)
        assert.match(json(named).translations.ru, /Ṗáý|\\u1e56\\u00e1\\u00fd/, json(named).translations.ru);
      });
    }

    it('writes the target language lines of a po file (Russian: three gettext forms)', async () => {
      const body = json(await post('/v1/translate', { content: FILES.po, targets: ['ru', 'pt-BR'], format: 'po' }));
      assert.match(body.translations.ru, /"Language: ru\\n"/);
      assert.match(body.translations.ru, /"Plural-Forms: nplurals=3; plural=/);
      assert.deepEqual([...body.translations.ru.matchAll(/^msgstr\[(\d)\]/gm)].map((m: RegExpMatchArray) => m[1]), ['0', '1', '2']);
      assert.match(body.translations['pt-BR'], /"Language: pt_BR\\n"/);
    });

    it('writes Russian plural forms in Android quantities and ARB ICU branches', async () => {
      const android = json(await post('/v1/translate', { content: FILES.android, targets: ['ru'], format: 'android' })).translations.ru as string;
      assert.deepEqual([...android.matchAll(/quantity="(\w+)"/g)].map((m) => m[1]), ['one', 'few', 'many', 'other']);
      const arb = JSON.parse(json(await post('/v1/translate', { content: FILES.arb, targets: ['ru', 'ja'], format: 'arb' })).translations.ru) as Record<string, string>;
      assert.match(arb.files!, /one\{.*\} few\{.*\} many\{.*\} other\{.*\}\}$/);
      assert.equal(arb['@@locale'], 'ru');
    });

    it('accepts the Apple, Android and ARB formats in a job and an estimate', async () => {
      for (const format of ['strings', 'stringsdict', 'xcstrings', 'android', 'arb'] as const) {
        const job = await post('/v1/jobs', { content: FILES[format], targets: ['de'], format });
        assert.equal(job.statusCode, 202, job.body);
        const estimate = await post('/v1/translate/estimate', { content: FILES[format], targets: ['ko'] }); // (a target no other test here fills the memory for)
        assert.equal(estimate.statusCode, 200, estimate.body);
        assert.ok(json(estimate).input_tokens > 0, estimate.body);
      }
    });

    it('accepts every locale format in a batch, a job and an estimate', async () => {
      const items = Object.entries(FILES).map(([format, content]) => ({ id: format, content, format }));
      const batch = await post('/v1/translate/batch', { items, targets: ['de'] });
      assert.equal(batch.statusCode, 200, batch.body);
      assert.deepEqual(json(batch).results.map((r: { id: string }) => r.id), Object.keys(FILES));
      const job = await post('/v1/jobs', { content: FILES.yaml, targets: ['de'], format: 'yaml' });
      assert.equal(job.statusCode, 202, job.body);
      const estimate = await post('/v1/translate/estimate', { content: FILES.xliff, targets: ['ja'], format: 'xliff' });
      assert.equal(estimate.statusCode, 200, estimate.body);
      assert.ok(json(estimate).input_tokens > 0, estimate.body);
    });

    for (const [format, content, line] of [
      ['android', '<resources>\n  <string name="a">A</string>\n  <string name="b">B</b>\n</resources>\n', 3],
      ['arb', '{\n  "a": "A",\n  "b": "B",\n}\n', 4],
      ['po', 'msgid "a"\nmsgstr "b"\nmsgfoo "c"\n', 3],
      ['yaml', 'en:\n  a: [1, 2\n  b: x\n', 3], // (where the yaml parser finds the unclosed sequence)
      ['xliff', '<xliff version="1.2">\n<file><body>\n<trans-unit id="a"><source>Hi</target>\n</trans-unit></body></file></xliff>', 3],
      ['xliff', '<xliff version="1.2">\n<file source-language="en"><body>\n<trans-unit id="a"><source>Hi</source></trans-unit>\n</foo>\n</body></file></xliff>', 4], // (an end tag that closes nothing)
      ['properties', 'a=b\nc=\\uZZZZ\n', 2],
      ['strings', '"a" = "b";\n\n"c" "d";\n', 3],
      ['stringsdict', '<plist version="1.0">\n<dict>\n<key>a</key>\n<string>x</key>\n</dict>\n</plist>\n', 4],
      ['xcstrings', '{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "a" : {]\n  }\n}', 4],
    ] as const) {
      it(`answers ${format} that does not parse with 400 invalid_request naming the line`, async () => {
        const response = await post('/v1/translate', { content, targets: ['fr'], format });
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(json(response).error, 'invalid_request');
        assert.match(json(response).message, new RegExp(`line ${line}\\b`));
      });
    }
  });
}
