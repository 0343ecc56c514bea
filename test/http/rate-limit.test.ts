import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';

const T0 = Date.parse('2026-11-21T10:00:00.000Z');

for (const backend of testBackends()) {
  describe(`per-minute rate limits on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let now = T0;
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ backend, clock: () => now });
    });
    after(() => t.close());

    const translate = (auth: string, payload: unknown = { content: 'Hi', targets: ['fr'] }) =>
      t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: auth }, payload: payload as object });

    it('allows a free user 5 requests a minute with exact headers, then 429 with Retry-After', async () => {
      now = T0;
      const { auth } = await t.key('free');
      for (let i = 0; i < 5; i++) {
        now = T0 + i * 1000;
        const response = await translate(auth);
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.headers['x-ratelimit-limit'], '5');
        assert.equal(response.headers['x-ratelimit-remaining'], String(4 - i));
        assert.equal(response.headers['x-ratelimit-reset'], String(T0 / 1000 + 60));
      }
      now = T0 + 10_000;
      const refused = await translate(auth);
      assert.equal(refused.statusCode, 429);
      assert.deepEqual(Object.keys(json(refused)).sort(), ['error', 'message']);
      assert.equal(json(refused).error, 'rate_limit_reached');
      assert.equal(refused.headers['retry-after'], '50');
      assert.equal(refused.headers['x-ratelimit-limit'], '5');
      assert.equal(refused.headers['x-ratelimit-remaining'], '0');
      assert.equal(refused.headers['x-ratelimit-reset'], String(T0 / 1000 + 60));
      now = T0 + 60_000; // the 61st second: the first slot is free again
      assert.equal((await translate(auth)).statusCode, 200);
    });

    it('shares one allowance across the endpoints and all of a user\'s keys', async () => {
      now = T0;
      // A user id of its own: the Redis window outlives the test database (60 s).
      const userId = `shared-${randomUUID()}`;
      const first = await t.key('free', userId);
      const second = await t.key('free', userId);
      await translate(first.auth);
      await t.app.inject({ method: 'POST', url: '/v1/translate/batch', headers: { authorization: second.auth }, payload: { items: [{ id: 'a', content: 'x' }], targets: ['fr'] } });
      await t.app.inject({ method: 'POST', url: '/v1/jobs', headers: { authorization: first.auth }, payload: { content: 'x', targets: ['fr'] } });
      const fourth = await translate(second.auth);
      assert.equal(fourth.headers['x-ratelimit-remaining'], '1');
    });

    it('does not spend the allowance on polling or usage', async () => {
      now = T0;
      const { auth } = await t.key('free');
      const job = json(await t.app.inject({ method: 'POST', url: '/v1/jobs', headers: { authorization: auth }, payload: { content: 'x', targets: ['fr'] } }));
      for (let i = 0; i < 10; i++) {
        const poll = await t.app.inject({ method: 'GET', url: `/v1/jobs/${job.job_id}`, headers: { authorization: auth } });
        assert.equal(poll.statusCode, 200);
        assert.equal(poll.headers['x-ratelimit-limit'], undefined);
        const usage = await t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: auth } });
        assert.equal(usage.statusCode, 200);
      }
      assert.equal((await translate(auth)).headers['x-ratelimit-remaining'], '3');
    });

    it('counts requests that fail validation, and puts the headers on their errors too', async () => {
      now = T0;
      const { auth } = await t.key('free');
      const bad = await translate(auth, { content: '', targets: ['fr'] });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.headers['x-ratelimit-remaining'], '4');
    });

    it('answers 429 before reading the body (rate limit comes before size and fields)', async () => {
      now = T0;
      const { auth } = await t.key('free');
      for (let i = 0; i < 5; i++) await translate(auth);
      const huge = await t.app.inject({
        method: 'POST',
        url: '/v1/translate',
        headers: { authorization: auth, 'content-type': 'application/json' },
        payload: JSON.stringify({ content: 'a'.repeat(3 * 1024 * 1024), targets: ['fr'] }),
      });
      assert.equal(huge.statusCode, 429);
    });

    it('applies each tier\'s limit', async () => {
      for (const [tier, limit] of [['starter', 30], ['growth', 60], ['scale', 120]] as const) {
        now = T0;
        const { auth } = await t.key(tier);
        const response = await translate(auth);
        assert.equal(response.headers['x-ratelimit-limit'], String(limit));
        assert.equal(response.headers['x-ratelimit-remaining'], String(limit - 1));
      }
    });

    it('gives enterprise no limit and no headers', async () => {
      now = T0;
      const { auth } = await t.key('enterprise');
      for (let i = 0; i < 130; i++) {
        const response = await translate(auth);
        assert.equal(response.statusCode, 200);
        assert.equal(response.headers['x-ratelimit-limit'], undefined);
      }
    });
  });
}

describe('RATE_LIMIT_STORE=none', () => {
  it('skips limits and sends no rate-limit headers', async () => {
    const t = await startTestApp({ env: { RATE_LIMIT_STORE: 'none' } });
    try {
      const { auth } = await t.key('free');
      for (let i = 0; i < 8; i++) {
        const response = await t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: auth }, payload: { content: 'Hi', targets: ['fr'] } });
        assert.equal(response.statusCode, 200);
        assert.equal(response.headers['x-ratelimit-limit'], undefined);
        assert.equal(response.headers['x-ratelimit-remaining'], undefined);
      }
    } finally {
      await t.close();
    }
  });
});
