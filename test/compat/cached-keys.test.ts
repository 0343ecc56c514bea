/**
 * The compat APIs authenticate through the same cached key lookup as /v1
 * (accounts/key-cache.ts): a key used again costs no database read, and a key revoked from
 * the command line — another process — is refused on DeepL's and LibreTranslate's routes
 * within 1 second, on both backends, as it is on /v1.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';
import { startServed, type Served } from '../helpers/served.js';
import { msUntil } from '../helpers/timing.js';

const LIMIT_MS = 1_000;

for (const backend of testBackends()) {
  describe(`compat keys from the cache, on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ backend });
    });
    after(() => t.close());

    it('read a key through the cache, and not again while nothing changes', async () => {
      const { key } = await t.key('scale');
      const deepl = () => t.app.inject({ method: 'GET', url: '/deepl/v2/usage', headers: { authorization: `DeepL-Auth-Key ${key}` } });
      const libre = () => t.app.inject({ method: 'POST', url: '/libretranslate/translate', payload: { q: 'Hi', source: 'en', target: 'fr', api_key: key } });
      const first = t.services.keys.lookups.queryCount;
      assert.equal((await deepl()).statusCode, 200);
      assert.ok(t.services.keys.lookups.queryCount > first, 'the first request read the key through the key cache');
      // The key's creation is heard a moment later on PostgreSQL, and a read begun before it is not kept.
      await msUntil(async () => {
        const count = t.services.keys.lookups.queryCount;
        assert.equal((await deepl()).statusCode, 200);
        return t.services.keys.lookups.queryCount === count;
      }, 50);
      const settled = t.services.keys.lookups.queryCount;
      for (let i = 0; i < 3; i++) {
        const answered = [await deepl(), await libre()];
        for (const response of answered) assert.equal(response.statusCode, 200, response.body);
      }
      assert.equal(t.services.keys.lookups.queryCount, settled, 'six requests with a cached key read nothing');
    });
  });

  describe(`compat keys revoked by another process, on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let served: Served;
    before(async () => {
      served = await startServed(backend);
    });
    after(() => served.close());

    const root = () => served.base.replace(/\/v1$/, '');
    const deeplStatus = async (key: string) => {
      const response = await fetch(`${root()}/deepl/v2/usage`, { headers: { authorization: `DeepL-Auth-Key ${key}` } });
      await response.arrayBuffer();
      return response.status;
    };
    const libreStatus = async (key: string) => {
      const response = await fetch(`${root()}/libretranslate/translate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ q: 'Hi', source: 'en', target: 'fr', api_key: key }),
      });
      await response.arrayBuffer();
      return response.status;
    };

    for (const [api, status, refused] of [['DeepL', deeplStatus, 403], ['LibreTranslate', libreStatus, 403]] as const) {
      it(`a key revoked with \`keys revoke\` is refused on ${api}'s routes within 1 s`, async () => {
        const created = JSON.parse(served.cli('keys', 'create', '--tier', 'scale', '--json')) as { key: string; key_id: string };
        for (let i = 0; i < 10; i++) assert.equal(await status(created.key), 200);
        served.cli('keys', 'revoke', created.key_id);
        const ms = await msUntil(async () => (await status(created.key)) === refused, 20);
        assert.ok(ms < LIMIT_MS, `revoked key still accepted ${Math.round(ms)} ms after the CLI returned`);
      });
    }
  });
}
