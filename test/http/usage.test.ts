import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';
import { FailingEngine, GatedEngine, registryOf } from '../helpers/engines.js';

for (const backend of testBackends()) {
  describe(`GET /v1/usage and the free-tier pre-check on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let now = Date.parse('2026-11-30T23:59:00.000Z');
    let t: TestApp;
    before(async () => {
      t = await startTestApp({
        backend,
        clock: () => now,
        env: { RATE_LIMIT_STORE: 'none', FREE_TIER_MONTHLY_TOKENS: '1000', STARTER_MONTHLY_TOKENS: '10' },
      });
    });
    after(() => t.close());

    const usage = async (auth: string) => json(await t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: auth } }));
    const translate = (auth: string, payload: object) =>
      t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: auth }, payload });

    it('reports each tier\'s grant for the current UTC month', async () => {
      const expected = { free: 1000, starter: 10, growth: 5_000_000, scale: 20_000_000, enterprise: null };
      for (const [tier, included] of Object.entries(expected)) {
        const report = await usage((await t.key(tier as never)).auth);
        assert.deepEqual(report, {
          period_start: '2026-11-01T00:00:00.000Z',
          period_end: '2026-11-30T23:59:59.999Z',
          tokens_used: 0,
          tokens_included: included,
          tokens_remaining: included,
          overage_tokens: 0,
          tier,
        });
      }
    });

    it('charges exactly the tokens a response reports', async () => {
      const { auth } = await t.key('free');
      const first = json(await translate(auth, { content: 'Hello there', targets: ['fr', 'de'] }));
      const second = json(await translate(auth, { content: 'General Kenobi', targets: ['es'] }));
      const report = await usage(auth);
      assert.equal(report.tokens_used, first.usage.total_tokens + second.usage.total_tokens);
      assert.equal(report.tokens_remaining, 1000 - report.tokens_used);
    });

    it('rejects a free request whose estimate exceeds the remaining grant with 429 token_limit_reached, charging nothing', async () => {
      const { auth } = await t.key('free');
      // ceil(2000 / 4) × (1 + 1) = 1000 fits exactly; 2004 characters would be 1002.
      const tooBig = await translate(auth, { content: 'a '.repeat(1002), targets: ['fr'] });
      assert.equal(tooBig.statusCode, 429, tooBig.body);
      assert.equal(json(tooBig).error, 'token_limit_reached');
      assert.equal(tooBig.headers['retry-after'], undefined);
      assert.equal((await usage(auth)).tokens_used, 0);
      const fits = await translate(auth, { content: 'a '.repeat(1000), targets: ['fr'] });
      assert.equal(fits.statusCode, 200, fits.body);
    });

    it('applies the pre-check to batches (summed) and to jobs', async () => {
      const { auth } = await t.key('free');
      const items = [{ id: 'a', content: 'x'.repeat(1100) }, { id: 'b', content: 'y'.repeat(1100) }]; // 550 each, 1100 together
      const batch = await t.app.inject({ method: 'POST', url: '/v1/translate/batch', headers: { authorization: auth }, payload: { items, targets: ['fr'] } });
      assert.equal(batch.statusCode, 429);
      assert.equal(json(batch).error, 'token_limit_reached');
      const job = await t.app.inject({ method: 'POST', url: '/v1/jobs', headers: { authorization: auth }, payload: { content: 'z'.repeat(2400), targets: ['fr'] } });
      assert.equal(job.statusCode, 429);
      assert.equal(json(job).error, 'token_limit_reached');
    });

    it('never blocks paid tiers, which run into overage', async () => {
      const { auth } = await t.key('starter');
      const response = await translate(auth, { content: 'A sentence long enough to pass ten tokens easily, twice over.', targets: ['fr', 'de'] });
      assert.equal(response.statusCode, 200);
      const report = await usage(auth);
      assert.ok(report.tokens_used > 10);
      assert.equal(report.tokens_remaining, 0);
      assert.equal(report.overage_tokens, report.tokens_used - 10);
    });

    it('checks tier access (403) before the pre-check (429)', async () => {
      const { auth } = await t.key('free');
      const response = await translate(auth, { content: 'a'.repeat(50_000), targets: ['fr'], model: 'advanced' });
      assert.equal(response.statusCode, 403);
      assert.equal(json(response).error, 'advanced_not_available');
    });

    it('counts usage in the month it is delivered; a new month starts from zero', async () => {
      const { auth } = await t.key('free');
      now = Date.parse('2026-11-30T23:59:59.999Z');
      const charged = json(await translate(auth, { content: 'Late in November', targets: ['fr'] })).usage.total_tokens;
      assert.equal((await usage(auth)).tokens_used, charged);
      now = Date.parse('2026-12-01T00:00:00.000Z');
      const december = await usage(auth);
      assert.equal(december.tokens_used, 0);
      assert.equal(december.period_start, '2026-12-01T00:00:00.000Z');
      assert.equal(december.period_end, '2026-12-31T23:59:59.999Z');
      now = Date.parse('2026-11-30T23:59:00.000Z');
    });
  });

  describe(`reservations on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    it('hold an in-flight estimate against the grant and give it back when the work fails', async () => {
      const gated = new GatedEngine();
      const t = await startTestApp({ backend, engines: registryOf(gated), env: { RATE_LIMIT_STORE: 'none', FREE_TIER_MONTHLY_TOKENS: '1000' } });
      try {
        const { auth } = await t.key('free');
        const payload = { content: 'b'.repeat(1200), targets: ['fr'], format: 'plain' }; // estimate 600
        const inFlight = t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: auth }, payload });
        while (gated.started === 0) await new Promise((r) => setTimeout(r, 5));
        const second = await t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: auth }, payload });
        assert.equal(second.statusCode, 429, 'the first request\'s reservation must count');
        gated.release();
        const first = await inFlight;
        assert.equal(first.statusCode, 200, first.body);
        const used = json(await t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: auth } })).tokens_used;
        assert.equal(used, json(first).usage.total_tokens, 'the reservation was replaced by real usage');
      } finally {
        await t.close();
      }
    });

    it('a failed translation answers 500 translation_error, charges nothing and frees its reservation', async () => {
      const failing = new FailingEngine('the model returned invalid JSON');
      const t = await startTestApp({ backend, engines: registryOf(failing), env: { RATE_LIMIT_STORE: 'none', FREE_TIER_MONTHLY_TOKENS: '1000' } });
      try {
        const { auth } = await t.key('free');
        const payload = { content: 'c'.repeat(1200), targets: ['fr'] };
        for (let i = 0; i < 3; i++) {
          const response = await t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: auth }, payload });
          assert.equal(response.statusCode, 500, 'a leaked reservation would turn this into 429');
          assert.deepEqual(json(response), { error: 'translation_error', message: json(response).message });
          assert.match(json(response).message, /invalid JSON/);
        }
        const report = json(await t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: auth } }));
        assert.equal(report.tokens_used, 0);
      } finally {
        await t.close();
      }
    });
  });
}
