/**
 * Glossaries with a model behind the API (the fake provider over HTTP): the model is
 * given only the entries that occur in its call and never sees a do-not-translate term,
 * an answer missing a required translation gets one repair round, and what still
 * misses it is accepted and counted in usage.glossary_misses.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';
import { openaiReply, startFakeProvider, userMessage, targetCodes, type FakeProvider, type RecordedRequest } from '../helpers/fake-provider.js';

const GLOSSARY = {
  name: 'Billing',
  source: 'en',
  entries: [
    { term: 'account', translations: { fr: 'compte', de: 'Konto' } },
    { term: 'invoice', translations: { fr: 'facture' } },
  ],
  do_not_translate: ['Acme Cloud'],
};
const USAGE = { input: 100, output: 20 };

/** Answers every line for every target, with `rewrite` applied to each line. */
function answer(request: RecordedRequest, rewrite: (text: string, code: string) => string) {
  const message = userMessage(request);
  return openaiReply(Object.fromEntries(targetCodes(message).map((code) => [code, message.segments.map((text) => rewrite(text, code))])), USAGE);
}
const ignoringGlossary = (text: string, code: string) => `[${code}] ${text}`;
const usingGlossary = (text: string, code: string) =>
  `[${code}] ${text.replace(/account/gi, code === 'fr' ? 'compte' : 'Konto').replace(/invoice/gi, code === 'fr' ? 'facture' : 'invoice')}`;

for (const backend of testBackends()) {
  describe(`glossaries with a model on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let provider: FakeProvider;
    let t: TestApp;
    let auth: string;
    let glossaryId: string;
    before(async () => {
      provider = await startFakeProvider();
      t = await startTestApp({
        backend,
        // One call per request: these tests count what each call carries, not how the planner
        // spreads small requests over the slots (test/translation/plan.test.ts).
        env: { RATE_LIMIT_STORE: 'none', MODEL_STANDARD: 'openai:fake-model', OPENAI_BASE_URL: provider.baseUrl, ENGINE_CONCURRENCY: '1' },
      });
      auth = (await t.key('growth')).auth;
      const created = await t.app.inject({ method: 'POST', url: '/v1/glossaries', headers: { authorization: auth }, payload: GLOSSARY });
      glossaryId = json(created).glossary_id;
    });
    after(async () => {
      await t.close();
      await provider.close();
    });
    afterEach(() => provider.reset());

    const translate = (content: string, targets: string[]) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/translate',
        headers: { authorization: auth },
        payload: { content, targets, format: 'plain', glossary_id: glossaryId, memory: false },
      });

    it('sends only the entries occurring in the call, for its targets, and do-not-translate terms as marks', async () => {
      provider.fallback((request) => answer(request, usingGlossary));
      const response = await translate('Open your Account in Acme Cloud.', ['fr', 'de']);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(provider.requests.length, 1);
      const message = userMessage(provider.requests[0]!);
      assert.deepEqual(message.segments, ['Open your Account in <x1/>.']);
      assert.deepEqual(message.glossary, { account: { fr: 'compte', de: 'Konto' } });
      const body = json(response);
      assert.equal(body.translations.fr, '[fr] Open your compte in Acme Cloud.');
      assert.equal(body.translations.de, '[de] Open your Konto in Acme Cloud.');
      assert.equal(body.usage.glossary_misses, 0);
      assert.equal(body.usage.input_tokens, USAGE.input);
    });

    it('gives an answer missing a required term one repair round, for the missing pairs only', async () => {
      let calls = 0;
      provider.fallback((request) => (calls++ === 0 ? answer(request, ignoringGlossary) : answer(request, usingGlossary)));
      const response = await translate('Send the invoice.\n\nNothing to see here.', ['fr', 'de']);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(provider.requests.length, 2);
      const repair = userMessage(provider.requests[1]!);
      assert.deepEqual(repair.segments, ['Send the invoice.'], 'only the line that missed its term');
      assert.deepEqual(targetCodes(repair), ['fr'], 'German has no translation of "invoice"');
      assert.equal(repair.fix?.length, 1);
      assert.equal(repair.fix![0]!.line, 1);
      assert.match(repair.fix![0]!.problem, /"invoice" → "facture"/);
      assert.equal(repair.fix![0]!.previous, '[fr] Send the invoice.');
      const body = json(response);
      assert.equal(body.translations.fr, '[fr] Send the facture.\n\n[fr] Nothing to see here.');
      assert.equal(body.translations.de, '[de] Send the invoice.\n\n[de] Nothing to see here.');
      assert.equal(body.usage.glossary_misses, 0);
      assert.equal(body.usage.input_tokens, 2 * USAGE.input, 'the repair call is charged');
    });

    it('accepts what still misses the term after the repair and counts it in glossary_misses', async () => {
      provider.fallback((request) => answer(request, ignoringGlossary));
      const response = await translate('Close the account.', ['fr', 'de']);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(provider.requests.length, 2, 'one call and one repair, no more');
      const body = json(response);
      assert.equal(body.translations.fr, '[fr] Close the account.');
      assert.equal(body.usage.glossary_misses, 2);
    });
  });
}
