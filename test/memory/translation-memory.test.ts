/**
 * Translation memory through the real app on each backend: a repeated document costs
 * nothing, a changed locale file pays for its changed strings only, users never share,
 * `"memory": false` opts out, DELETE /v1/memory forgets, old entries expire, and the
 * batch route and jobs serve from memory too.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { createJobWorker } from '../../src/run/start-up.js';
import { countTokens } from '../helpers/tokenizer.js';
import { pseudoTranslate } from '../../src/engines/pseudo.js';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';

const DAY = 24 * 3600_000;

/** A locale file of `count` keys, with the strings of `changed` keys edited. */
function localeFile(count: number, changed: ReadonlySet<number> = new Set()): { content: string; values: string[] } {
  const values = Array.from({ length: count }, (_, i) =>
    changed.has(i) ? `Edited label number ${i} for the settings page` : `Label number ${i} for the settings page`,
  );
  const content = JSON.stringify(Object.fromEntries(values.map((value, i) => [`key_${i}`, value])), null, 2);
  return { content, values };
}

for (const backend of testBackends()) {
  describe(`translation memory on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let t: TestApp;
    let now = Date.now();
    before(async () => {
      t = await startTestApp({ backend, env: { RATE_LIMIT_STORE: 'none', TRANSLATION_MEMORY_DAYS: '180' }, clock: () => now });
    });
    after(() => t.close());

    const post = (auth: string, url: string, payload: object, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url, headers: { authorization: auth, ...headers }, payload });
    const translate = (auth: string, payload: object) => post(auth, '/v1/translate', payload);
    const tokensUsed = async (auth: string): Promise<number> =>
      json(await t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: auth } })).tokens_used;

    it('translating the same document twice charges 0 tokens the second time, with the same translations', async () => {
      const { auth } = await t.key('growth');
      const payload = { content: '# Welcome\n\nSave your work often.\n\n- Open a file\n- Close it', targets: ['fr', 'de', 'ar'] };
      const first = json(await translate(auth, payload));
      assert.ok(first.usage.input_tokens > 0 && first.usage.output_tokens > 0);
      assert.equal(first.usage.cached_segments, 0);
      const used = await tokensUsed(auth);

      const second = await translate(auth, payload);
      assert.equal(second.statusCode, 200, second.body);
      const body = json(second);
      assert.deepEqual(body.translations, first.translations);
      assert.equal(body.usage.input_tokens, 0);
      assert.equal(body.usage.output_tokens, 0);
      assert.equal(body.usage.total_tokens, 0);
      // 4 distinct segments (heading, paragraph, two items) × 3 targets.
      assert.equal(body.usage.cached_segments, 4 * 3);
      assert.equal(await tokensUsed(auth), used, 'nothing charged for the second request');
    });

    it('a locale file with 2 of 500 strings changed pays for those 2 only', async () => {
      const { auth } = await t.key('growth');
      const targets = ['fr', 'de', 'es', 'ja', 'ar'];
      const before = localeFile(500);
      const first = json(await translate(auth, { content: before.content, targets, format: 'json' }));
      assert.equal(first.usage.cached_segments, 0);

      const after = localeFile(500, new Set([17, 402]));
      const response = await translate(auth, { content: after.content, targets, format: 'json' });
      assert.equal(response.statusCode, 200, response.body);
      const body = json(response);
      assert.equal(body.usage.cached_segments, 498 * targets.length);
      // The pseudo engine counts the source once per call and every target's output.
      const changed = [after.values[17]!, after.values[402]!];
      assert.equal(body.usage.input_tokens, changed.reduce((sum, text) => sum + countTokens(text), 0));
      const rtl = new Set(['ar']);
      const expectedOutput = targets.reduce(
        (sum, code) => sum + changed.reduce((inner, text) => inner + countTokens(pseudoTranslate(text, rtl.has(code))), 0),
        0,
      );
      assert.equal(body.usage.output_tokens, expectedOutput);
      assert.equal(JSON.parse(body.translations.fr).key_17, pseudoTranslate(after.values[17]!, false));
      assert.equal(JSON.parse(body.translations.fr).key_18, JSON.parse(first.translations.fr).key_18);
    });

    it('two users translating the same text share nothing', async () => {
      const alice = await t.key('growth');
      const bob = await t.key('growth');
      const payload = { content: 'Shared sentence between two customers.', targets: ['fr'] };
      const fromAlice = json(await translate(alice.auth, payload));
      const fromBob = json(await translate(bob.auth, payload));
      assert.equal(fromBob.usage.cached_segments, 0);
      assert.equal(fromBob.usage.input_tokens, fromAlice.usage.input_tokens);
      assert.ok(fromBob.usage.total_tokens > 0);
      const rows = await t.services.database.db
        .selectFrom('translation_memory')
        .select('user_id')
        .where('user_id', 'in', [alice.userId, bob.userId])
        .execute();
      assert.deepEqual(rows.map((row) => row.user_id).sort(), [alice.userId, bob.userId].sort());
      // Bob forgetting his memory leaves Alice's.
      assert.equal((await t.app.inject({ method: 'DELETE', url: '/v1/memory', headers: { authorization: bob.auth } })).statusCode, 204);
      assert.equal(json(await translate(alice.auth, payload)).usage.total_tokens, 0);
      assert.ok(json(await translate(bob.auth, payload)).usage.total_tokens > 0);
    });

    it('"memory": false neither reads nor writes memory', async () => {
      const { auth } = await t.key('growth');
      const payload = { content: 'Opted out of memory.', targets: ['de'] };
      const off = json(await translate(auth, { ...payload, memory: false }));
      assert.ok(off.usage.total_tokens > 0);
      assert.equal(off.usage.cached_segments, 0);
      const on = json(await translate(auth, payload));
      assert.equal(on.usage.total_tokens, off.usage.total_tokens, 'nothing was stored by the opted-out request');
      const offAgain = json(await translate(auth, { ...payload, memory: false }));
      assert.equal(offAgain.usage.total_tokens, off.usage.total_tokens, 'nothing is read either');
      assert.equal(offAgain.usage.cached_segments, 0);
      assert.equal(json(await translate(auth, { ...payload, memory: true })).usage.total_tokens, 0);
    });

    it('memory must be a boolean, checked after the contract fields', async () => {
      const { auth } = await t.key('growth');
      const bad = await translate(auth, { content: 'x', targets: ['fr'], memory: 'no' });
      assert.equal(bad.statusCode, 400);
      assert.equal(json(bad).error, 'invalid_request');
      assert.match(json(bad).message, /memory/);
      const modelFirst = await translate(auth, { content: 'x', targets: ['fr'], model: 'huge', memory: 0 });
      assert.match(json(modelFirst).message, /model/);
      const batch = await post(auth, '/v1/translate/batch', { items: [{ id: 'a', content: 'x' }], targets: ['fr'], memory: 1 });
      assert.equal(batch.statusCode, 400);
      assert.match(json(batch).message, /memory/);
    });

    it('DELETE /v1/memory answers 204, with or without a JSON content type, and the next request pays again', async () => {
      const { auth } = await t.key('growth');
      const payload = { content: 'Forget me soon.', targets: ['fr'] };
      const first = json(await translate(auth, payload));
      assert.equal(json(await translate(auth, payload)).usage.total_tokens, 0);

      const plain = await t.app.inject({ method: 'DELETE', url: '/v1/memory', headers: { authorization: auth } });
      assert.equal(plain.statusCode, 204);
      assert.equal(plain.body, '');
      assert.equal(json(await translate(auth, payload)).usage.total_tokens, first.usage.total_tokens);

      const withType = await t.app.inject({
        method: 'DELETE',
        url: '/v1/memory',
        headers: { authorization: auth, 'content-type': 'application/json' },
      });
      assert.equal(withType.statusCode, 204, withType.body);
      assert.equal(json(await translate(auth, payload)).usage.total_tokens, first.usage.total_tokens);

      const anonymous = await t.app.inject({ method: 'DELETE', url: '/v1/memory' });
      assert.equal(anonymous.statusCode, 401);
    });

    it('the batch route serves from memory and reports cached_segments', async () => {
      const { auth } = await t.key('growth');
      const items = [
        { id: 'a', content: 'First item text.' },
        { id: 'b', content: 'Second item text.' },
      ];
      await translate(auth, { content: 'First item text.', targets: ['fr', 'de'] });
      const response = await post(auth, '/v1/translate/batch', { items, targets: ['fr', 'de'] });
      assert.equal(response.statusCode, 200, response.body);
      const body = json(response);
      assert.equal(body.usage.cached_segments, 2, 'item a in both targets');
      assert.equal(body.usage.input_tokens, countTokens('Second item text.'));
      assert.equal(body.results[0].translations.fr, pseudoTranslate('First item text.', false));
      const again = json(await post(auth, '/v1/translate/batch', { items, targets: ['fr', 'de'] }));
      assert.equal(again.usage.cached_segments, 4);
      assert.equal(again.usage.total_tokens, 0);
    });

    it('a completed job serves from memory, reports cached_segments and is charged only what models processed', async () => {
      const { auth } = await t.key('growth');
      await translate(auth, { content: 'Job text one.\n\nJob text two.', targets: ['fr'], format: 'plain' });
      const worker = createJobWorker(t.services);
      const completed = new Set<string>();
      worker.on('job:complete', (id: string) => completed.add(id));
      await worker.start();
      try {
        const submit = (content: string) => post(auth, '/v1/jobs', { content, targets: ['fr'], format: 'plain' });
        const cachedJob = json(await submit('Job text one.\n\nJob text two.')).job_id as string;
        const mixedJob = json(await submit('Job text one.\n\nJob text three.')).job_id as string;
        while (!completed.has(cachedJob) || !completed.has(mixedJob)) await once(worker, 'job:complete');
        const view = async (id: string) => json(await t.app.inject({ method: 'GET', url: `/v1/jobs/${id}`, headers: { authorization: auth } }));
        const cached = await view(cachedJob);
        assert.equal(cached.status, 'completed');
        assert.deepEqual(cached.usage, { input_tokens: 0, output_tokens: 0, total_tokens: 0, model: 'standard', cached_segments: 2 });
        const mixed = await view(mixedJob);
        assert.equal(mixed.usage.cached_segments, 1);
        assert.equal(mixed.usage.input_tokens, countTokens('Job text three.'));
        assert.equal(mixed.translations.fr, `${pseudoTranslate('Job text one.', false)}\n\n${pseudoTranslate('Job text three.', false)}`);

        const optedOut = json(await post(auth, '/v1/jobs', { content: 'Job text one.', targets: ['fr'], format: 'plain', memory: false })).job_id as string;
        while (!completed.has(optedOut)) await once(worker, 'job:complete');
        const paid = await view(optedOut);
        assert.equal(paid.usage.cached_segments, 0);
        assert.equal(paid.usage.input_tokens, countTokens('Job text one.'));
      } finally {
        await worker.stop(5_000);
      }
    });

    it('entries unused for TRANSLATION_MEMORY_DAYS are removed by the periodic clean-up; used ones stay', async () => {
      const { auth, userId } = await t.key('growth');
      const start = now;
      try {
        now = start - 181 * DAY;
        await translate(auth, { content: 'An old sentence.', targets: ['fr'] });
        now = start - 10 * DAY;
        await translate(auth, { content: 'A recent sentence.', targets: ['fr'] });
        now = start;
        const count = async () =>
          (await t.services.database.db.selectFrom('translation_memory').select('entry_key').where('user_id', '=', userId).execute()).length;
        assert.equal(await count(), 2);
        const worker = createJobWorker(t.services);
        await worker.start();
        try {
          const deadline = Date.now() + 10_000;
          while ((await count()) !== 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        } finally {
          await worker.stop(1_000);
        }
        assert.equal(await count(), 1);
        assert.ok(json(await translate(auth, { content: 'An old sentence.', targets: ['fr'] })).usage.total_tokens > 0);
        assert.equal(json(await translate(auth, { content: 'A recent sentence.', targets: ['fr'] })).usage.total_tokens, 0);
      } finally {
        now = start;
      }
    });
  });
}
