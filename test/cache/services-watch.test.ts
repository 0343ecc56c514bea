/**
 * The composition root makes and watches the change feed itself (src/services.ts, decision
 * 0051): services built without any HTTP app — as a worker process builds them — hear
 * another process's changes, so a memory entry another process deleted stops being served
 * at once and a revoked key at once, on both backends; closing the services stops the
 * watch (the feed is no longer trusted).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { KEY_CACHE_TTL_MS } from '../../src/accounts/key-cache.js';
import { createKey } from '../../src/accounts/keys.js';
import { loadConfig, parseDatabaseUrl } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { saveMemory } from '../../src/memory/store.js';
import { RECENT_ENTRY_MS } from '../../src/memory/translation-memory.js';
import { createServices, type Services } from '../../src/services.js';
import { createTestDatabase, servicesFor, skipUnless, testBackends, testRateLimitEnv, type TestDatabase } from '../helpers/backends.js';
import { quietLogger } from '../jobs/queue-setup.js';
import { msUntil, sleep } from '../helpers/timing.js';

for (const backend of testBackends()) {
  describe(`services hear changes without an HTTP app, on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let testDb: TestDatabase;
    let services: Services;
    /** Another process's connection. */
    let other: Database;

    before(async () => {
      testDb = await createTestDatabase(backend);
      other = openDatabase(parseDatabaseUrl(testDb.url));
      await migrateToLatest(other.db);
      services = await createServices(loadConfig({ DATABASE_URL: testDb.url, ...testRateLimitEnv(backend) }), { logger: quietLogger });
    });
    after(async () => {
      await services.close();
      await other.close();
      await testDb.drop();
    });

    it('trust the feed once the services are made', async () => {
      await msUntil(async () => services.changes.watching);
      assert.equal(services.changes.watching, true);
    });

    it('stop serving memory another process deleted as soon as it is heard, and a key it revoked', async () => {
      const created = await createKey(other.db, { tier: 'scale', now: Date.now() });
      await saveMemory(other.db, created.userId, [{ key: 'hello', translation: 'bonjour' }], Date.now());
      await sleep(150); // the key's creation is a change too: let it be heard
      const memory = services.memory.forUser(created.userId);
      assert.equal((await memory.lookup(['hello'])).get('hello'), 'bonjour');
      assert.ok(await services.keys.authenticate(created.key));
      await sleep(Math.max(RECENT_ENTRY_MS, KEY_CACHE_TTL_MS) + 100);
      const reads = services.memory.reads.queryCount;
      const lookups = services.keys.lookups.queryCount;
      assert.equal((await memory.lookup(['hello'])).get('hello'), 'bonjour');
      assert.ok(await services.keys.authenticate(created.key));
      assert.deepEqual([services.memory.reads.queryCount, services.keys.lookups.queryCount], [reads, lookups], 'past the short lives, kept because the feed is heard');
      await other.db.deleteFrom('translation_memory').where('user_id', '=', created.userId).execute();
      await other.db.updateTable('api_keys').set({ revoked_at: Date.now() }).where('id', '=', created.keyId).execute();
      const ms = await msUntil(async () => (await memory.lookup(['hello'])).size === 0 && (await services.keys.authenticate(created.key)) === undefined);
      assert.ok(ms < RECENT_ENTRY_MS, `still served ${Math.round(ms)} ms after the change`);
    });
  });
}
