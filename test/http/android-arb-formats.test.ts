/**
 * Android `strings.xml` and Flutter ARB through the real app (docs/contract.md §6): both
 * are accepted by /translate, /translate/batch, /jobs and the estimate, detected when
 * `format` is omitted (`detected_format`), and a file that does not parse is 400
 * invalid_request naming the line.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';

const FILES = {
  android: '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <!-- The checkout button -->\n    <string name="pay">Pay</string>\n    <plurals name="files">\n        <item quantity="one">%d file</item>\n        <item quantity="other">%d files</item>\n    </plurals>\n</resources>\n',
  arb: '{\n  "@@locale": "en",\n  "pay": "Pay",\n  "@pay": {\n    "description": "The checkout button"\n  },\n  "files": "{count, plural, one{{count} file} other{{count} files}}"\n}\n',
} as const;

for (const backend of testBackends()) {
  describe(`Android and ARB files over HTTP on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
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
        assert.match(json(named).translations.ru, /Ṗáý/);
      });
    }

    it('writes Russian plural forms in both (Android quantities, ICU branches)', async () => {
      const android = json(await post('/v1/translate', { content: FILES.android, targets: ['ru'], format: 'android' })).translations.ru as string;
      assert.deepEqual([...android.matchAll(/quantity="(\w+)"/g)].map((m) => m[1]), ['one', 'few', 'many', 'other']);
      const arb = JSON.parse(json(await post('/v1/translate', { content: FILES.arb, targets: ['ru', 'ja'], format: 'arb' })).translations.ru) as Record<string, string>;
      assert.match(arb.files!, /one\{.*\} few\{.*\} many\{.*\} other\{.*\}\}$/);
      assert.equal(arb['@@locale'], 'ru');
    });

    it('accepts both in a batch, a job and an estimate', async () => {
      const items = Object.entries(FILES).map(([format, content]) => ({ id: format, content, format }));
      const batch = await post('/v1/translate/batch', { items, targets: ['de'] });
      assert.equal(batch.statusCode, 200, batch.body);
      assert.deepEqual(json(batch).results.map((r: { id: string }) => r.id), Object.keys(FILES));
      const job = await post('/v1/jobs', { content: FILES.android, targets: ['de'], format: 'android' });
      assert.equal(job.statusCode, 202, job.body);
      const estimate = await post('/v1/translate/estimate', { content: FILES.arb, targets: ['ko'], format: 'arb' });
      assert.equal(estimate.statusCode, 200, estimate.body);
      assert.ok(json(estimate).input_tokens > 0, estimate.body);
    });

    for (const [format, content, line] of [
      ['android', '<resources>\n  <string name="a">A</string>\n  <string name="b">B</b>\n</resources>\n', 3],
      ['arb', '{\n  "a": "A",\n  "b": "B",\n}\n', 4],
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
