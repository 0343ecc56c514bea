/**
 * Glossaries through the real app on each backend: the CRUD routes and their limits,
 * glossary_id on /translate, /translate/batch and POST /jobs with the pseudo engine
 * (entries applied deterministically, do-not-translate terms back exactly), 404 before
 * any work or charge, and an edit that invalidates translation memory.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { pseudoTranslate } from '../../src/engines/pseudo.js';
import { GLOSSARY_LIMITS } from '../../src/glossaries/glossary.js';
import { createJobWorker } from '../../src/run/start-up.js';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const ACME = {
  name: 'Acme product terms',
  source: 'en',
  entries: [
    { term: 'account', translations: { fr: 'compte', de: 'Konto' } },
    { term: 'invoice', translations: { fr: 'facture' } },
  ],
  do_not_translate: ['Acme Cloud'],
};

for (const backend of testBackends()) {
  describe(`glossaries on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let t: TestApp;
    let now = Date.parse('2026-11-24T10:00:00.000Z');
    before(async () => {
      t = await startTestApp({ backend, env: { RATE_LIMIT_STORE: 'none' }, clock: () => now });
    });
    after(() => t.close());

    const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth: string, payload?: object) =>
      t.app.inject({ method, url, headers: { authorization: auth }, ...(payload ? { payload } : {}) });
    const create = async (auth: string, body: object = ACME): Promise<string> => {
      const response = await call('POST', '/v1/glossaries', auth, body);
      assert.equal(response.statusCode, 201, response.body);
      return json(response).glossary_id;
    };
    const tokensUsed = async (auth: string): Promise<number> => json(await call('GET', '/v1/usage', auth)).tokens_used;

    it('POST answers 201 with the glossary summary; GET lists newest first and shows one with its entries', async () => {
      const { auth } = await t.key('growth');
      const created = await call('POST', '/v1/glossaries', auth, ACME);
      assert.equal(created.statusCode, 201, created.body);
      const body = json(created);
      assert.deepEqual(Object.keys(body).sort(), ['created_at', 'entry_count', 'glossary_id', 'name', 'source', 'updated_at']);
      assert.equal(body.name, ACME.name);
      assert.equal(body.source, 'en');
      assert.equal(body.entry_count, 2);
      assert.match(body.created_at, ISO);
      assert.equal(body.updated_at, body.created_at);

      now += 1_000;
      const second = await create(auth, { ...ACME, name: 'Second' });
      const list = json(await call('GET', '/v1/glossaries', auth));
      assert.deepEqual(
        list.glossaries.map((g: { glossary_id: string }) => g.glossary_id),
        [second, body.glossary_id],
      );

      const one = json(await call('GET', `/v1/glossaries/${body.glossary_id}`, auth));
      assert.deepEqual(one.entries, ACME.entries);
      assert.deepEqual(one.do_not_translate, ACME.do_not_translate);
      assert.equal(one.version, 1);
    });

    it('PUT replaces the glossary and bumps its version; DELETE answers 204 and the glossary is gone', async () => {
      const { auth } = await t.key('growth');
      const id = await create(auth);
      now += 1_000;
      const replaced = await call('PUT', `/v1/glossaries/${id}`, auth, { name: 'Renamed', source: 'en', entries: [{ term: 'file', translations: { de: 'Datei' } }] });
      assert.equal(replaced.statusCode, 200, replaced.body);
      const body = json(replaced);
      assert.equal(body.name, 'Renamed');
      assert.equal(body.version, 2);
      assert.equal(body.entry_count, 1);
      assert.deepEqual(body.do_not_translate, []);
      assert.notEqual(body.updated_at, body.created_at);

      const deleted = await t.app.inject({ method: 'DELETE', url: `/v1/glossaries/${id}`, headers: { authorization: auth, 'content-type': 'application/json' } });
      assert.equal(deleted.statusCode, 204, deleted.body);
      const gone = await call('GET', `/v1/glossaries/${id}`, auth);
      assert.equal(gone.statusCode, 404);
      assert.equal(json(gone).error, 'not_found');
      assert.equal((await call('DELETE', `/v1/glossaries/${id}`, auth)).statusCode, 404);
    });

    it("another user's glossary, an unknown id and a malformed id are all 404 not_found", async () => {
      const owner = await t.key('growth');
      const other = await t.key('growth');
      const id = await create(owner.auth);
      for (const [method, payload] of [['GET'], ['PUT', ACME], ['DELETE']] as const) {
        for (const target of [id, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
          const response = await call(method, `/v1/glossaries/${target}`, other.auth, payload);
          assert.equal(response.statusCode, 404, `${method} ${target}: ${response.body}`);
          assert.equal(json(response).error, 'not_found');
        }
      }
      assert.equal(json(await call('GET', `/v1/glossaries/${id}`, owner.auth)).version, 1, 'untouched by the other user');
      assert.deepEqual(json(await call('GET', '/v1/glossaries', other.auth)).glossaries, []);
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/glossaries' })).statusCode, 401);
    });

    it('refuses bodies past the documented limits and malformed ones with 400', async () => {
      const { auth } = await t.key('growth');
      const entry = (i: number) => ({ term: `term ${i}`, translations: { fr: `terme ${i}` } });
      const cases: [object | undefined, string, RegExp][] = [
        [undefined, 'invalid_request', /JSON object/],
        [{ ...ACME, name: '' }, 'invalid_request', /name/],
        [{ ...ACME, source: 'xx' }, 'invalid_language', /source/],
        [{ ...ACME, entries: Array.from({ length: GLOSSARY_LIMITS.entries + 1 }, (_, i) => entry(i)) }, 'invalid_request', /at most 5000/],
        [{ ...ACME, entries: [{ term: 'a'.repeat(GLOSSARY_LIMITS.termChars + 1), translations: { fr: 'x' } }] }, 'invalid_request', /at most 200 characters/],
        [{ ...ACME, entries: [{ term: 'account', translations: { fr: 'b'.repeat(201) } }] }, 'invalid_request', /at most 200 characters/],
        [{ ...ACME, entries: [entry(1), { ...entry(1), term: 'TERM 1' }] }, 'invalid_request', /twice/],
        [{ ...ACME, entries: [{ term: 'x', translations: {} }] }, 'invalid_request', /at least one language/],
        [{ ...ACME, entries: [{ term: 'x', translations: { zz: 'y' } }] }, 'invalid_language', /zz/],
        [{ ...ACME, entries: [{ term: 'line\nbreak', translations: { fr: 'y' } }] }, 'invalid_request', /line breaks/],
        [{ ...ACME, do_not_translate: ['<x1/>'] }, 'invalid_request', /tag-like/],
        [{ ...ACME, do_not_translate: 'Acme' }, 'invalid_request', /array/],
        [{ name: 'empty', source: 'en' }, 'invalid_request', /at least one entry/],
      ];
      for (const [body, code, message] of cases) {
        const response = await t.app.inject({
          method: 'POST',
          url: '/v1/glossaries',
          headers: { authorization: auth, 'content-type': 'application/json' },
          payload: body === undefined ? '' : JSON.stringify(body),
        });
        assert.equal(response.statusCode, 400, `${JSON.stringify(body)?.slice(0, 80)}: ${response.body}`);
        assert.equal(json(response).error, code);
        assert.match(json(response).message, message);
      }
      assert.deepEqual(json(await call('GET', '/v1/glossaries', auth)).glossaries, [], 'nothing was stored');
    });

    it(`refuses a user's glossary number ${GLOSSARY_LIMITS.perUser + 1}`, async () => {
      const { auth, userId } = await t.key('growth');
      const rows = Array.from({ length: GLOSSARY_LIMITS.perUser }, (_, i) => ({
        id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        user_id: userId,
        name: `g${i}`,
        source: 'en',
        version: 1,
        entries: '[]',
        do_not_translate: '["Acme"]',
        entry_count: 0,
        created_at: now,
        updated_at: now,
      }));
      await t.services.database.db.insertInto('glossaries').values(rows).execute();
      const refused = await call('POST', '/v1/glossaries', auth, ACME);
      assert.equal(refused.statusCode, 400);
      assert.match(json(refused).message, /at most 100 glossaries/);
      await call('DELETE', `/v1/glossaries/${rows[0]!.id}`, auth);
      assert.equal((await call('POST', '/v1/glossaries', auth, ACME)).statusCode, 201);
    });

    it('applies entries and do-not-translate terms on /translate with the pseudo engine', async () => {
      const { auth } = await t.key('growth');
      const id = await create(auth);
      const content = 'Open your Account in Acme Cloud to see each invoice.';
      const response = await call('POST', '/v1/translate', auth, { content, targets: ['fr', 'de', 'ar'], format: 'plain', glossary_id: id });
      assert.equal(response.statusCode, 200, response.body);
      const body = json(response);
      const p = (text: string, rtl = false) => pseudoTranslate(text, rtl);
      assert.equal(body.translations.fr, `${p('Open your ')}compte${p(' in ')}Acme Cloud${p(' to see each ')}facture.`);
      // No German translation of "invoice": it is translated like any other word.
      assert.equal(body.translations.de, `${p('Open your ')}Konto${p(' in ')}Acme Cloud${p(' to see each invoice.')}`);
      assert.equal(body.translations.ar, `\u202B${p('Open your ')}${p('Account')}${p(' in ')}Acme Cloud${p(' to see each invoice.')}\u202C`);
      assert.equal(body.usage.glossary_misses, 0);
      assert.equal(body.usage.cached_segments, 0);
      const without = json(await call('POST', '/v1/translate', auth, { content, targets: ['fr'], format: 'plain' }));
      assert.equal(without.translations.fr, p(content));
      assert.equal('glossary_misses' in without.usage, false);
    });

    it('does not find terms inside longer words, and keeps markup around them', async () => {
      const { auth } = await t.key('growth');
      const id = await create(auth);
      const content = '<p>The accountant opened the <b>account</b> for Acme Clouds.</p>';
      const body = json(await call('POST', '/v1/translate', auth, { content, targets: ['fr'], format: 'html', glossary_id: id }));
      const p = (text: string) => pseudoTranslate(text, false);
      assert.equal(body.translations.fr, `<p>${p('The accountant opened the ')}<b>compte</b>${p(' for Acme Clouds.')}</p>`);
    });

    it("an unknown or another user's glossary_id is 404 on /translate, /translate/batch and /jobs, before any charge", async () => {
      const owner = await t.key('free');
      const other = await t.key('free');
      const id = await create(owner.auth);
      const used = await tokensUsed(other.auth);
      for (const glossary_id of [id, '00000000-0000-4000-8000-000000000000', 'gls-unknown']) {
        const requests = [
          call('POST', '/v1/translate', other.auth, { content: 'Hello account', targets: ['fr'], glossary_id }),
          call('POST', '/v1/translate/batch', other.auth, { items: [{ id: 'a', content: 'Hello' }], targets: ['fr'], glossary_id }),
          call('POST', '/v1/jobs', other.auth, { content: 'Hello account', targets: ['fr'], glossary_id }),
          // Before the tier check (403) too.
          call('POST', '/v1/translate', other.auth, { content: 'Hello', targets: ['fr'], model: 'advanced', glossary_id }),
        ];
        for (const response of await Promise.all(requests)) {
          assert.equal(response.statusCode, 404, response.body);
          assert.equal(json(response).error, 'not_found');
        }
      }
      assert.equal(await tokensUsed(other.auth), used);
      const jobs = await t.services.database.db.selectFrom('jobs').select('id').where('user_id', '=', other.userId).execute();
      assert.deepEqual(jobs, []);
      const reservations = await t.services.database.db.selectFrom('token_reservations').select('id').where('user_id', '=', other.userId).execute();
      assert.deepEqual(reservations, []);
      const bad = await call('POST', '/v1/translate', other.auth, { content: 'x', targets: ['fr'], glossary_id: 42 });
      assert.equal(bad.statusCode, 400);
      assert.match(json(bad).message, /glossary_id/);
    });

    it("refuses a glossary whose source differs from the request's source", async () => {
      const { auth } = await t.key('growth');
      const id = await create(auth);
      const response = await call('POST', '/v1/translate', auth, { content: 'Bonjour', source: 'fr', targets: ['de'], glossary_id: id });
      assert.equal(response.statusCode, 400);
      assert.match(json(response).message, /source en/);
    });

    it('editing a glossary invalidates the memory made under it', async () => {
      const { auth } = await t.key('growth');
      const id = await create(auth);
      const payload = { content: 'Your account is ready.', targets: ['fr'], format: 'plain', glossary_id: id };
      const first = json(await call('POST', '/v1/translate', auth, payload));
      assert.match(first.translations.fr, /compte/);
      assert.equal(json(await call('POST', '/v1/translate', auth, payload)).usage.cached_segments, 1);

      await call('PUT', `/v1/glossaries/${id}`, auth, { ...ACME, entries: [{ term: 'account', translations: { fr: 'espace client' } }] });
      const edited = json(await call('POST', '/v1/translate', auth, payload));
      assert.equal(edited.usage.cached_segments, 0);
      assert.ok(edited.usage.total_tokens > 0);
      assert.match(edited.translations.fr, /espace client/);
      assert.equal(json(await call('POST', '/v1/translate', auth, payload)).usage.cached_segments, 1);
      // Without the glossary the same text is another key again.
      assert.equal(json(await call('POST', '/v1/translate', auth, { ...payload, glossary_id: undefined })).usage.cached_segments, 0);
    });

    it('applies the glossary on the batch route and in jobs, with glossary_misses in their usage', async () => {
      const { auth } = await t.key('growth');
      const id = await create(auth);
      const batch = json(
        await call('POST', '/v1/translate/batch', auth, {
          items: [
            { id: 'a', content: 'New invoice' },
            { id: 'b', content: 'Acme Cloud account' },
          ],
          targets: ['fr'],
          glossary_id: id,
        }),
      );
      assert.equal(batch.results[0].translations.fr, `${pseudoTranslate('New ', false)}facture`);
      assert.equal(batch.results[1].translations.fr, 'Acme Cloud compte');
      assert.equal(batch.usage.glossary_misses, 0);

      const worker = createJobWorker(t.services);
      await worker.start();
      try {
        const submitted = json(await call('POST', '/v1/jobs', auth, { content: 'Close the account', targets: ['de'], glossary_id: id }));
        await once(worker, 'job:complete');
        const view = json(await call('GET', `/v1/jobs/${submitted.job_id}`, auth));
        assert.equal(view.status, 'completed');
        assert.equal(view.translations.de, `${pseudoTranslate('Close the ', false)}Konto`);
        assert.equal(view.usage.glossary_misses, 0);
        assert.equal(view.usage.cached_segments, 0);

        // A glossary deleted between submission and run fails the job in plain words.
        const doomed = await create(auth);
        await worker.stop(5_000);
        const queued = json(await call('POST', '/v1/jobs', auth, { content: 'Late job', targets: ['de'], glossary_id: doomed }));
        assert.equal((await call('DELETE', `/v1/glossaries/${doomed}`, auth)).statusCode, 204);
        const second = createJobWorker(t.services);
        await second.start();
        try {
          await once(second, 'job:fail');
        } finally {
          await second.stop(5_000);
        }
        assert.deepEqual(json(await call('GET', `/v1/jobs/${queued.job_id}`, auth)), {
          job_id: queued.job_id,
          status: 'failed',
          error: 'no glossary with this id',
        });
      } finally {
        await worker.stop(5_000);
      }
    });
  });
}
