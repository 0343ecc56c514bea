/**
 * docs/contract.md §3.7: the free-tier pre-check reserves its estimate while the work runs, so
 * concurrent requests cannot together overshoot the grant — on every backend.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { json, startTestApp } from '../helpers/app.js';
import { skipUnless, testBackends } from '../helpers/backends.js';

const GRANT = 5_000;
const ALREADY_USED = 1_100;
// 400 UTF-16 units into one target: ceil(400 / 4) × (1 + 1) = 200 tokens each.
const CONTENT = 'Quota race. '.repeat(34).slice(0, 400);
const ESTIMATE = 200;

for (const backend of testBackends()) {
  describe(`free-tier quota under concurrency on ${backend}`, { skip: await skipUnless({ backend }) }, () => {
    test('50 concurrent job submissions whose estimates exceed the remaining grant: the accepted ones fit it exactly', async () => {
      const t = await startTestApp({ backend, env: { FREE_TIER_MONTHLY_TOKENS: String(GRANT), RATE_LIMIT_STORE: 'none' } });
      try {
        const { auth, userId } = await t.key('free');
        await t.services.charges.charge({ userId, usage: { inputTokens: 600, outputTokens: 500 }, now: Date.now() });
        const remaining = GRANT - ALREADY_USED;
        const responses = await Promise.all(
          Array.from({ length: 50 }, () =>
            t.app.inject({
              method: 'POST',
              url: '/v1/jobs',
              headers: { authorization: auth, 'content-type': 'application/json' },
              payload: { content: CONTENT, targets: ['fr'] },
            }),
          ),
        );
        const accepted = responses.filter((r) => r.statusCode === 202);
        const refused = responses.filter((r) => r.statusCode === 429);
        assert.equal(accepted.length + refused.length, 50, responses.map((r) => `${r.statusCode} ${r.body}`).join('\n'));
        for (const r of refused) assert.equal(json(r).error, 'token_limit_reached', r.body);
        assert.ok(accepted.length * ESTIMATE <= remaining, `${accepted.length} × ${ESTIMATE} > ${remaining}`);
        // Serialized, not merely pessimistic: every request that fitted was accepted.
        assert.equal(accepted.length, Math.floor(remaining / ESTIMATE));
        const held = await t.services.database.db
          .selectFrom('token_reservations')
          .select((eb) => eb.fn.sum<number>('tokens').as('tokens'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow();
        assert.equal(Number(held.tokens), accepted.length * ESTIMATE);
      } finally {
        await t.close();
      }
    });
  });
}
