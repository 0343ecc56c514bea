/**
 * The idempotency store on each backend, with a settable clock: a key whose owner stopped
 * renewing (its process died) is taken over once the lease lapses, and the late owner can
 * no longer write an answer over the new one's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { IdempotencyStore, LEASE_MS } from '../../src/idempotency/store.js';
import { createTestDatabase, servicesFor, skipUnless, testBackends, type TestDatabase } from '../helpers/backends.js';

for (const backend of testBackends()) {
  describe(`the idempotency store on ${backend}`, { skip: await skipUnless({ backend: servicesFor(backend).backend }) }, () => {
    let testDatabase: TestDatabase;
    let database: Database;
    let now = 1_000_000;
    const clock = () => now;
    before(async () => {
      testDatabase = await createTestDatabase(backend);
      database = openDatabase(loadConfig({ DATABASE_URL: testDatabase.url, RATE_LIMIT_STORE: 'none' }).database);
      await migrateToLatest(database.db);
    });
    after(async () => {
      await database.close();
      await testDatabase.drop();
    });

    it('a key whose owner died is taken over after the lease; the late owner cannot answer', async () => {
      const dying = new IdempotencyStore(database.db, { clock });
      const first = await dying.begin('u1', 'k', 'fp');
      assert.equal(first.kind, 'owner');
      // The process dies: its renewals stop.
      await dying.close();

      const store = new IdempotencyStore(database.db, { clock });
      try {
        await assert.rejects(store.begin('u1', 'k', 'fp'), { code: 'idempotency_key_in_use' });
        now += LEASE_MS + 1;
        const second = await store.begin('u1', 'k', 'fp');
        assert.equal(second.kind, 'owner');
        await second.key.complete({ status: 200, contentType: 'application/json', body: '{"new":true}' });
        if (first.kind === 'owner') await first.key.complete({ status: 200, contentType: 'application/json', body: '{"old":true}' });
        const replay = await store.begin('u1', 'k', 'fp');
        assert.deepEqual(replay, { kind: 'replay', answer: { status: 200, contentType: 'application/json', body: '{"new":true}' } });
      } finally {
        await store.close();
      }
    });

    it('a released key can be used again at once', async () => {
      const store = new IdempotencyStore(database.db, { clock });
      try {
        const held = await store.begin('u2', 'k', 'fp');
        assert.equal(held.kind, 'owner');
        if (held.kind === 'owner') await held.key.release();
        const again = await store.begin('u2', 'k', 'other-body');
        assert.equal(again.kind, 'owner', 'a released key remembers no body');
      } finally {
        await store.close();
      }
    });
  });
}
