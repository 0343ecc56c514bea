import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { revokeKey } from '../../src/accounts/keys.js';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';

/** Every protected route, with a body that would be valid. */
const PROTECTED = [
  { method: 'POST', url: '/v1/translate', payload: { content: 'Hello', targets: ['fr'] } },
  { method: 'POST', url: '/v1/translate/batch', payload: { items: [{ id: 'a', content: 'Hello' }], targets: ['fr'] } },
  { method: 'POST', url: '/v1/jobs', payload: { content: 'Hello', targets: ['fr'] } },
  { method: 'GET', url: '/v1/jobs/00000000-0000-4000-8000-000000000000' },
  { method: 'GET', url: '/v1/usage' },
] as const;

for (const backend of testBackends()) {
  describe(`authentication on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let t: TestApp;
    let revoked: string;
    before(async () => {
      t = await startTestApp({ backend });
      const key = await t.key('free');
      await revokeKey(t.services.database.db, key.keyId, Date.now());
      revoked = key.key;
    });
    after(() => t.close());

    const cases: Record<string, (() => Record<string, string>)> = {
      'no Authorization header': () => ({}),
      'a malformed header': () => ({ authorization: 'Token abc' }),
      'an empty bearer': () => ({ authorization: 'Bearer ' }),
      'an unknown key': () => ({ authorization: 'Bearer tsk_not-a-real-key' }),
      'a revoked key': () => ({ authorization: `Bearer ${revoked}` }),
    };

    for (const route of PROTECTED) {
      for (const [name, headers] of Object.entries(cases)) {
        it(`${route.method} ${route.url} with ${name} answers 401 invalid_api_key`, async () => {
          const response = await t.app.inject({ method: route.method, url: route.url, headers: headers(), ...('payload' in route ? { payload: route.payload } : {}) });
          assert.equal(response.statusCode, 401, response.body);
          assert.equal(json(response).error, 'invalid_api_key');
          assert.ok(json(response).message.length > 0);
          assert.equal(response.headers['x-ratelimit-limit'], undefined, 'auth fails before the rate limit');
        });
      }
    }

    it('accepts the scheme in any case', async () => {
      const { key } = await t.key('starter');
      const response = await t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: `bearer ${key}` } });
      assert.equal(response.statusCode, 200, response.body);
    });

    it('never writes the Authorization header or the key to the log', async () => {
      const { key, auth } = await t.key('free');
      await t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: auth }, payload: { content: 'Hi', targets: ['de'] } });
      await t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: auth } });
      await t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: auth }, payload: '{bad json' });
      const everything = JSON.stringify(t.logs);
      assert.ok(t.logs.length > 0, 'the app logs requests');
      assert.ok(!everything.includes(key), 'the key appeared in a log line');
    });
  });
}
