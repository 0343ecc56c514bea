/**
 * POST /v1/translate without `source`: the language is detected on the text segments and
 * reported in `usage` (detected_source, source_confidence); with `source`, nothing is
 * detected or reported.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';

for (const backend of testBackends()) {
  describe(`source detection on POST /v1/translate on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let t: TestApp;
    let auth: string;
    before(async () => {
      t = await startTestApp({ backend, env: { RATE_LIMIT_STORE: 'none' } });
      auth = (await t.key('growth')).auth;
    });
    after(() => t.close());

    const translate = async (payload: object) => {
      const response = await t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: auth }, payload });
      assert.equal(response.statusCode, 200, response.body);
      return json(response);
    };

    it('reports the detected language and a confidence in [0, 1] when source is omitted', async () => {
      const body = await translate({ content: 'Le chat dort sur le canapé pendant que la pluie tombe.', targets: ['en'] });
      assert.equal(body.usage.detected_source, 'fr');
      assert.ok(body.usage.source_confidence > 0 && body.usage.source_confidence <= 1, String(body.usage.source_confidence));
    });

    it('judges the text of an html document, not its English tag and attribute names', async () => {
      const content =
        '<div class="container main-content"><section id="header-section"><p>Der Hund läuft schnell über die grüne Wiese.</p>' +
        '<img src="logo.png" alt="Ein kleines Haus am See"></section></div>';
      const body = await translate({ content, targets: ['fr'], format: 'html' });
      assert.equal(body.usage.detected_source, 'de');
    });

    it('reports Norwegian as nb, the code this service serves', async () => {
      const body = await translate({ content: 'Jeg heter Kari og jeg bor i en liten by ved fjorden.', targets: ['en'] });
      assert.equal(body.usage.detected_source, 'nb');
    });

    it('detects nothing and reports nothing when the request names its source', async () => {
      const body = await translate({ content: 'Le chat dort sur le canapé.', targets: ['en'], source: 'fr' });
      assert.equal(body.usage.detected_source, undefined);
      assert.equal(body.usage.source_confidence, undefined);
    });

    it('reports nothing for content with no letters to judge by', async () => {
      const body = await translate({ content: '12 345 — 67.89 %', targets: ['en'], format: 'plain' });
      assert.equal(body.usage.detected_source, undefined);
    });
  });
}
