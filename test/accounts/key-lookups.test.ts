import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { keyLookups } from '../../src/accounts/key-cache.js';
import { createKey, hashKey, revokeKey, type CreatedKey } from '../../src/accounts/keys.js';
import { parseDatabaseUrl } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createTestDatabase, servicesFor, skipUnless, testBackends, type TestDatabase } from '../helpers/backends.js';

for (const backend of testBackends()) {
  describe(`key lookups that arrive together, on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let testDb: TestDatabase;
    let database: Database;
    const keys: CreatedKey[] = [];
    let revoked: CreatedKey;
    before(async () => {
      testDb = await createTestDatabase(backend);
      database = openDatabase(parseDatabaseUrl(testDb.url));
      await migrateToLatest(database.db);
      for (let i = 0; i < 40; i++) keys.push(await createKey(database.db, { tier: i % 2 ? 'scale' : 'growth', now: 1 }));
      revoked = await createKey(database.db, { tier: 'scale', now: 1 });
      await revokeKey(database.db, revoked.keyId, 2);
    });
    after(async () => {
      await database.close();
      await testDb.drop();
    });

    it('share queries, and each caller gets its own key\'s owner', async () => {
      const lookups = keyLookups(database.db);
      const found = await Promise.all(keys.map((key) => lookups.find(hashKey(key.key))));
      assert.deepEqual(found, keys.map((key) => ({ id: key.userId, tier: key.tier })));
      // At most four run at once: the rest waited and went together.
      assert.ok(lookups.queryCount <= 5, `${lookups.queryCount} queries for ${keys.length} keys`);
    });

    it('find no owner for a revoked or unknown key among active ones', async () => {
      const lookups = keyLookups(database.db);
      const [first, gone, unknown, last] = await Promise.all([
        lookups.find(hashKey(keys[0]!.key)),
        lookups.find(hashKey(revoked.key)),
        lookups.find(hashKey('tsk_not-a-real-key')),
        lookups.find(hashKey(keys[39]!.key)),
      ]);
      assert.deepEqual(first, { id: keys[0]!.userId, tier: keys[0]!.tier });
      assert.equal(gone, undefined);
      assert.equal(unknown, undefined);
      assert.deepEqual(last, { id: keys[39]!.userId, tier: keys[39]!.tier });
    });
  });
}
