/**
 * POST /v1/translate/estimate through the real app on each backend: the tokens a
 * /translate would spend after memory, with no model call, no charge, no rate-limit
 * slot, and the free tier's pre-check applied.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FIXED_INPUT_TOKENS } from '../../src/translation/plan.js';
import { countTokens } from '../helpers/tokenizer.js';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';
import { startFakeProvider, type FakeProvider } from '../helpers/fake-provider.js';

const PARAGRAPHS = ['Estimates cost nothing at all.', 'They show what memory saves.', 'And whether the free grant suffices.'];
const FREE_GRANT = 2_000;

for (const backend of testBackends()) {
  describe(`POST /v1/translate/estimate on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let t: TestApp;
    before(async () => {
      // The backend's own rate-limit store (memory or Redis): the estimate must not spend it.
      t = await startTestApp({ backend, env: { FREE_TIER_MONTHLY_TOKENS: String(FREE_GRANT) } });
    });
    after(() => t.close());

    const post = (auth: string, url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: { authorization: auth }, payload });
    const estimate = (auth: string, payload: object) => post(auth, '/v1/translate/estimate', payload);
    const tokensUsed = async (auth: string): Promise<number> =>
      json(await t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: auth } })).tokens_used;

    it('answers the expected tokens after memory and charges nothing; memory brings them to 0', async () => {
      const { auth } = await t.key('growth');
      const payload = { content: PARAGRAPHS.join('\n\n'), targets: ['fr', 'de'], format: 'plain' };
      const response = await estimate(auth, payload);
      assert.equal(response.statusCode, 200, response.body);
      const body = json(response);
      assert.deepEqual(Object.keys(body).sort(), ['cached_segments', 'input_tokens', 'model_calls', 'output_tokens', 'precheck', 'total_tokens']);
      // The pseudo engine is charged its segments' o200k tokens once per call: the estimate's input exactly.
      assert.equal(body.input_tokens, PARAGRAPHS.reduce((sum, text) => sum + countTokens(text), 0));
      assert.ok(body.output_tokens > body.input_tokens, 'two targets write more than the source');
      assert.equal(body.total_tokens, body.input_tokens + body.output_tokens);
      assert.equal(body.cached_segments, 0);
      assert.equal(body.model_calls, 1);
      assert.deepEqual(body.precheck, { passes: true, tokens_remaining: 5_000_000 });
      assert.equal(await tokensUsed(auth), 0, 'nothing charged');

      const translated = json(await post(auth, '/v1/translate', payload));
      assert.equal(translated.usage.cached_segments, 0, 'the estimate stored nothing in memory');
      assert.equal(translated.usage.input_tokens, body.input_tokens);

      const after = json(await estimate(auth, payload));
      assert.equal(after.input_tokens, 0);
      assert.equal(after.output_tokens, 0);
      assert.equal(after.model_calls, 0);
      assert.equal(after.cached_segments, PARAGRAPHS.length * 2);
      assert.equal(after.precheck.tokens_remaining, 5_000_000 - translated.usage.total_tokens);

      const changed = json(await estimate(auth, { ...payload, content: `${PARAGRAPHS.join('\n\n')}\n\nOne new paragraph.` }));
      assert.equal(changed.cached_segments, PARAGRAPHS.length * 2);
      assert.equal(changed.input_tokens, countTokens('One new paragraph.'));
      const optedOut = json(await estimate(auth, { ...payload, memory: false }));
      assert.equal(optedOut.cached_segments, 0);
      assert.equal(optedOut.input_tokens, body.input_tokens);
    });

    it("applies the free tier's pre-check: passes while the spec estimate fits what remains", async () => {
      const { auth } = await t.key('free');
      const small = json(await estimate(auth, { content: 'Short text.', targets: ['fr'] }));
      assert.deepEqual(small.precheck, { passes: true, tokens_remaining: FREE_GRANT });
      // ceil(length / 4) × (targets + 1) > the grant: /translate would answer 429.
      const content = 'word '.repeat(Math.ceil((FREE_GRANT * 4) / 5 / 2) + 10);
      const large = json(await estimate(auth, { content, targets: ['fr'] }));
      assert.deepEqual(large.precheck, { passes: false, tokens_remaining: FREE_GRANT });
      const refused = await post(auth, '/v1/translate', { content, targets: ['fr'] });
      assert.equal(refused.statusCode, 429);
      assert.equal(json(refused).error, 'token_limit_reached');
      const enterprise = await t.key('enterprise');
      assert.deepEqual(json(await estimate(enterprise.auth, { content, targets: ['fr'] })).precheck, { passes: true, tokens_remaining: null });
    });

    it('is not counted by the rate limit and carries no rate-limit headers', async () => {
      const { auth } = await t.key('free');
      for (let i = 0; i < 8; i++) {
        const response = await estimate(auth, { content: `Request ${i}`, targets: ['fr'] });
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.headers['x-ratelimit-limit'], undefined);
      }
      const translated = await post(auth, '/v1/translate', { content: 'Still allowed', targets: ['fr'] });
      assert.equal(translated.statusCode, 200, translated.body);
      assert.equal(translated.headers['x-ratelimit-remaining'], '4', 'the first counted request of the window');
    });

    it('validates like /translate, and an unknown glossary is 404', async () => {
      const { auth } = await t.key('free');
      const missing = await estimate(auth, { content: 'x' });
      const same = await post(auth, '/v1/translate', { content: 'x' });
      assert.equal(missing.statusCode, 400);
      assert.deepEqual(json(missing), json(same));
      const advanced = await estimate(auth, { content: 'x', targets: ['fr'], model: 'advanced' });
      assert.equal(advanced.statusCode, 403);
      const glossary = await estimate(auth, { content: 'x', targets: ['fr'], glossary_id: '00000000-0000-4000-8000-000000000000' });
      assert.equal(glossary.statusCode, 404);
      assert.equal(json(glossary).error, 'not_found');
      assert.equal((await t.app.inject({ method: 'POST', url: '/v1/translate/estimate', payload: { content: 'x', targets: ['fr'] } })).statusCode, 401);
    });
  });
}

describe('POST /v1/translate/estimate with a model behind it', () => {
  let provider: FakeProvider;
  let t: TestApp;
  before(async () => {
    provider = await startFakeProvider();
    t = await startTestApp({ env: { RATE_LIMIT_STORE: 'none', MODEL_STANDARD: 'openai:fake-model', OPENAI_BASE_URL: provider.baseUrl } });
  });
  after(async () => {
    await t.close();
    await provider.close();
  });

  it('makes no model call and counts the fixed prompt of each planned call', async () => {
    const { auth } = await t.key('growth');
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/translate/estimate',
      headers: { authorization: auth },
      payload: { content: PARAGRAPHS.join('\n\n'), targets: ['fr', 'de', 'ja'], format: 'plain' },
    });
    assert.equal(response.statusCode, 200, response.body);
    const body = json(response);
    assert.equal(provider.requests.length, 0);
    const source = PARAGRAPHS.reduce((sum, text) => sum + countTokens(text), 0);
    // Every call sends the fixed prompt; every segment goes once per target group the plan made.
    const groups = (body.input_tokens - body.model_calls * FIXED_INPUT_TOKENS) / source;
    assert.ok(Number.isInteger(groups) && groups >= 1 && groups <= 3, `${body.input_tokens} input tokens in ${body.model_calls} calls`);
  });
});
