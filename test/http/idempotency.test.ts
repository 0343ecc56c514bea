/**
 * Idempotency-Key on POST /v1/translate, /translate/batch and /jobs (CONTRACT §7), on
 * each backend: a retry with the same key and body gets the first answer again with
 * Idempotent-Replayed: true and is neither charged nor queued twice; another body under
 * the same key is 422, a key whose request still runs is 409; 5xx and 429 answers are
 * not kept; keys expire after 24 hours; bad keys are 400 in the envelope.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EngineError, type ChunkTranslation, type TranslateChunkInput, type TranslationEngine } from '../../src/engines/engine.js';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';
import { GatedEngine, pseudo, registryOf } from '../helpers/engines.js';

const HOUR = 3_600_000;

/** The pseudo engine, failing its calls while `failing` is set. */
class SwitchableEngine implements TranslationEngine {
  readonly id = 'switchable';
  readonly inner = pseudo();
  readonly budget = this.inner.budget;
  failing = false;
  calls = 0;
  async translate(input: TranslateChunkInput): Promise<ChunkTranslation> {
    this.calls++;
    if (this.failing) throw new EngineError('the model is down', false);
    return this.inner.translate(input);
  }
}

for (const backend of testBackends()) {
  describe(`Idempotency-Key on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let t: TestApp;
    let now = Date.UTC(2026, 10, 28, 12);
    const engine = new SwitchableEngine();
    before(async () => {
      t = await startTestApp({
        backend,
        clock: () => now,
        engines: registryOf(engine),
        env: { RATE_LIMIT_STORE: 'none', FREE_TIER_MONTHLY_TOKENS: '100' },
      });
    });
    after(() => t.close());

    const post = (auth: string, url: string, payload: object, key?: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url, headers: { authorization: auth, ...(key !== undefined ? { 'idempotency-key': key } : {}), ...headers }, payload });
    const tokensUsed = async (auth: string): Promise<number> =>
      json(await t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: auth } })).tokens_used;
    const jobCount = async (userId: string): Promise<number> =>
      Number((await t.services.database.db.selectFrom('jobs').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow()).n);

    it('a retried /v1/translate gets the first answer again, marked replayed, and is charged once', async () => {
      const { auth } = await t.key('growth');
      const body = { content: 'Pay once, even when the network fails.', targets: ['fr', 'de'], memory: false };
      const first = await post(auth, '/v1/translate', body, 'retry-1');
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(first.headers['idempotent-replayed'], undefined);
      const charged = await tokensUsed(auth);
      assert.ok(charged > 0);
      const callsBefore = engine.calls;

      const again = await post(auth, '/v1/translate', body, 'retry-1');
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body, first.body, 'the stored answer, byte for byte');
      assert.match(String(again.headers['content-type']), /^application\/json/);
      assert.equal(engine.calls, callsBefore, 'no model call for a replay');
      assert.equal(await tokensUsed(auth), charged, 'a replay is not charged');

      // Without a key the same request is work again, and paid again.
      const unkeyed = await post(auth, '/v1/translate', body);
      assert.equal(unkeyed.statusCode, 200);
      assert.equal(await tokensUsed(auth), charged * 2);
    });

    it('a retried POST /v1/jobs answers the same job and queues only one', async () => {
      const { auth, userId } = await t.key('growth');
      const body = { content: 'One job, however often it is submitted.', targets: ['es'] };
      const first = await post(auth, '/v1/jobs', body, 'job-key');
      assert.equal(first.statusCode, 202, first.body);
      const again = await post(auth, '/v1/jobs', body, 'job-key');
      assert.equal(again.statusCode, 202, again.body);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(json(again).job_id, json(first).job_id);
      assert.equal(await jobCount(userId), 1);
      // A different key is a different job.
      assert.equal((await post(auth, '/v1/jobs', body, 'job-key-2')).statusCode, 202);
      assert.equal(await jobCount(userId), 2);
    });

    it('a retried /v1/translate/batch is replayed and charged once', async () => {
      const { auth } = await t.key('growth');
      const body = { items: [{ id: 'a', content: 'First item.' }, { id: 'b', content: 'Second item.' }], targets: ['it'], memory: false };
      const first = await post(auth, '/v1/translate/batch', body, 'batch-key');
      assert.equal(first.statusCode, 200, first.body);
      const charged = await tokensUsed(auth);
      const again = await post(auth, '/v1/translate/batch', body, 'batch-key');
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body, first.body);
      assert.equal(await tokensUsed(auth), charged);
    });

    it('the same key with another body, or on another route, is 422 idempotency_key_reused', async () => {
      const { auth } = await t.key('growth');
      const body = { content: 'Original request.', targets: ['fr'] };
      assert.equal((await post(auth, '/v1/translate', body, 'reuse')).statusCode, 200);
      const changed = await post(auth, '/v1/translate', { ...body, targets: ['de'] }, 'reuse');
      assert.equal(changed.statusCode, 422, changed.body);
      assert.equal(json(changed).error, 'idempotency_key_reused');
      assert.match(json(changed).message, /different request/);
      const otherRoute = await post(auth, '/v1/jobs', body, 'reuse');
      assert.equal(otherRoute.statusCode, 422);
      assert.equal(json(otherRoute).error, 'idempotency_key_reused');
      // The body re-encoded with other whitespace is the same request.
      const reencoded = await t.app.inject({
        method: 'POST',
        url: '/v1/translate',
        headers: { authorization: auth, 'idempotency-key': 'reuse', 'content-type': 'application/json' },
        payload: JSON.stringify(body, null, 2),
      });
      assert.equal(reencoded.headers['idempotent-replayed'], 'true', reencoded.body);
    });

    it("keys are per user: another user's request with the same key runs on its own", async () => {
      const [a, b] = [await t.key('growth'), await t.key('growth')];
      const body = { content: 'Mine, not yours.', targets: ['nl'] };
      assert.equal((await post(a.auth, '/v1/translate', body, 'shared-name')).statusCode, 200);
      const other = await post(b.auth, '/v1/translate', { ...body, targets: ['pl'] }, 'shared-name');
      assert.equal(other.statusCode, 200, other.body);
      assert.equal(other.headers['idempotent-replayed'], undefined);
    });

    it('while the first request runs, a retry is 409 idempotency_key_in_use; afterwards it gets the answer', async () => {
      const gated = new GatedEngine();
      const gatedApp = await startTestApp({ backend, engines: registryOf(gated), env: { RATE_LIMIT_STORE: 'none' } });
      try {
        const { auth } = await gatedApp.key('growth');
        const send = () =>
          gatedApp.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: auth, 'idempotency-key': 'slow' }, payload: { content: 'Slow work.', targets: ['fr'], memory: false } });
        const first = send();
        while (gated.started === 0) await new Promise((resolve) => setTimeout(resolve, 5));
        const during = await send();
        assert.equal(during.statusCode, 409, during.body);
        assert.equal(json(during).error, 'idempotency_key_in_use');
        gated.release();
        const answered = await first;
        assert.equal(answered.statusCode, 200);
        const later = await send();
        assert.equal(later.headers['idempotent-replayed'], 'true');
        assert.equal(later.body, answered.body);
        assert.equal(gated.started, 1);
      } finally {
        await gatedApp.close();
      }
    });

    it('a 5xx answer is not kept: the retry runs again (and is charged once, when it succeeds)', async () => {
      const { auth } = await t.key('growth');
      const body = { content: 'The model is down for a moment.', targets: ['sv'], memory: false };
      engine.failing = true;
      try {
        const failed = await post(auth, '/v1/translate', body, 'flaky');
        assert.equal(failed.statusCode, 500, failed.body);
        assert.equal(json(failed).error, 'translation_error');
      } finally {
        engine.failing = false;
      }
      assert.equal(await tokensUsed(auth), 0);
      const retried = await post(auth, '/v1/translate', body, 'flaky');
      assert.equal(retried.statusCode, 200, retried.body);
      assert.equal(retried.headers['idempotent-replayed'], undefined);
      const charged = await tokensUsed(auth);
      assert.ok(charged > 0);
      assert.equal((await post(auth, '/v1/translate', body, 'flaky')).headers['idempotent-replayed'], 'true');
      assert.equal(await tokensUsed(auth), charged);
    });

    it('a 429 answer is not kept, a 4xx one is', async () => {
      const { auth } = await t.key('free');
      const tooBig = { content: 'x '.repeat(200), targets: ['fr', 'de'] };
      const refused = await post(auth, '/v1/translate', tooBig, 'over-grant');
      assert.equal(refused.statusCode, 429, refused.body);
      assert.equal(json(refused).error, 'token_limit_reached');
      const again = await post(auth, '/v1/translate', tooBig, 'over-grant');
      assert.equal(again.statusCode, 429);
      assert.equal(again.headers['idempotent-replayed'], undefined, 'a 429 is answered afresh');

      const invalid = { content: 'Fine text.', targets: ['xx'] };
      const first = await post(auth, '/v1/translate', invalid, 'bad-language');
      assert.equal(first.statusCode, 400);
      const replayed = await post(auth, '/v1/translate', invalid, 'bad-language');
      assert.equal(replayed.statusCode, 400);
      assert.equal(replayed.headers['idempotent-replayed'], 'true');
      assert.equal(replayed.body, first.body);
    });

    it('after 24 hours the key is forgotten: the request runs again, and the sweep deletes expired keys', async () => {
      const { auth } = await t.key('growth');
      const body = { content: 'Tomorrow is another day.', targets: ['fi'], memory: false };
      assert.equal((await post(auth, '/v1/translate', body, 'daily')).statusCode, 200);
      now += 24 * HOUR - 1;
      assert.equal((await post(auth, '/v1/translate', body, 'daily')).headers['idempotent-replayed'], 'true');
      now += 2;
      const fresh = await post(auth, '/v1/translate', body, 'daily');
      assert.equal(fresh.statusCode, 200);
      assert.equal(fresh.headers['idempotent-replayed'], undefined);

      assert.equal((await post(auth, '/v1/translate', body, 'to-sweep')).statusCode, 200);
      now += 24 * HOUR;
      assert.ok((await t.services.idempotency.deleteExpired()) >= 2);
      const left = await t.services.database.db.selectFrom('idempotency_keys').select('idempotency_key').where('expires_at', '<=', now).execute();
      assert.deepEqual(left, []);
    });

    it('bad keys are 400 invalid_request in the envelope; 255 printable characters are fine', async () => {
      const { auth } = await t.key('growth');
      const body = { content: 'Keys are checked.', targets: ['fr'] };
      for (const [key, pattern] of [
        ['', /empty/],
        ['k'.repeat(256), /256 characters long; at most 255/],
        ['tab\there', /not printable ASCII/],
        ['caf\u00e9', /not printable ASCII/],
      ] as const) {
        const response = await post(auth, '/v1/translate', body, key);
        assert.equal(response.statusCode, 400, `${JSON.stringify(key)}: ${response.body}`);
        assert.deepEqual(Object.keys(json(response)).sort(), ['error', 'message']);
        assert.equal(json(response).error, 'invalid_request');
        assert.match(json(response).message, pattern);
      }
      const longest = await post(auth, '/v1/jobs', body, '~'.repeat(255));
      assert.equal(longest.statusCode, 202, longest.body);
      const both = await post(auth, '/v1/translate', body, 'stream-key', { accept: 'text/event-stream' });
      assert.equal(both.statusCode, 400, both.body);
      assert.match(json(both).message, /event-stream/);
      // Routes that never stream ignore the Accept header, as they do without a key.
      const job = await post(auth, '/v1/jobs', body, 'job-with-accept', { accept: 'text/event-stream' });
      assert.equal(job.statusCode, 202, job.body);
    });
  });
}
