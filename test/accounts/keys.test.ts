import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEEPL_FREE_KEY_SUFFIX, createKey, findActiveKeys, generateKey, hashKey, listKeys, revokeKey, rotateKey } from '../../src/accounts/keys.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { parseDatabaseUrl } from '../../src/config.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createTestDatabase, servicesFor, skipUnless, testBackends, type TestDatabase } from '../helpers/backends.js';

/** The active key's owner, as the key cache looks it up (accounts/key-cache.ts). */
async function authenticate(db: Database['db'], key: string) {
  return (await findActiveKeys(db, [hashKey(key)])).get(hashKey(key));
}

describe('key hashing', () => {
  it('is pinned: a refactor must never silently invalidate every stored key', () => {
    assert.equal(hashKey('tsk_test-vector-0001'), 'f1c7facd4306015384e608ca1babd7d1c503f19906223c79dc50cb3ec47ac61c');
    assert.equal(hashKey('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('key format', () => {
  it('never ends in :fx, which DeepL clients send to DeepL\'s own free host instead of ours', () => {
    assert.equal(DEEPL_FREE_KEY_SUFFIX, ':fx');
    for (let i = 0; i < 5_000; i++) {
      const key = generateKey();
      assert.match(key, /^tsk_[A-Za-z0-9_-]{43}$/);
      assert.ok(!key.endsWith(':fx'), key);
    }
  });
});

for (const backend of testBackends()) {
  describe(`API keys on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let testDb: TestDatabase;
    let database: Database;
    before(async () => {
      testDb = await createTestDatabase(backend);
      database = openDatabase(parseDatabaseUrl(testDb.url));
      await migrateToLatest(database.db);
    });
    after(async () => {
      await database.close();
      await testDb.drop();
    });

    it('carry at least 128 random bits and are stored only as a hash', async () => {
      const created = await createKey(database.db, { tier: 'free', now: 1 });
      assert.match(created.key, /^tsk_[A-Za-z0-9_-]{43}$/); // 32 bytes = 256 bits
      const rows = await database.db.selectFrom('api_keys').selectAll().execute();
      for (const row of rows) assert.ok(!Object.values(row).includes(created.key), 'the key itself is stored');
      assert.equal(rows.find((r) => r.id === created.keyId)!.key_hash, hashKey(created.key));
    });

    it('authenticate their user, until revoked', async () => {
      const created = await createKey(database.db, { tier: 'growth', userId: 'acme', now: 1 });
      assert.deepEqual(await authenticate(database.db, created.key), { id: 'acme', tier: 'growth' });
      assert.equal(await authenticate(database.db, created.key + 'x'), undefined);
      await revokeKey(database.db, created.keyId, 2);
      assert.equal(await authenticate(database.db, created.key), undefined);
    });

    it('rotate to a new key for the same user and revoke the old one', async () => {
      const old = await createKey(database.db, { tier: 'scale', userId: 'rotor', name: 'ci', now: 1 });
      const fresh = await rotateKey(database.db, old.keyId, 2);
      assert.equal(fresh.userId, 'rotor');
      assert.notEqual(fresh.key, old.key);
      assert.equal(await authenticate(database.db, old.key), undefined);
      assert.deepEqual(await authenticate(database.db, fresh.key), { id: 'rotor', tier: 'scale' });
      const listed = await listKeys(database.db, 'rotor');
      assert.deepEqual(listed.map((k) => [k.name, k.revokedAt !== null]), [['ci', true], ['ci', false]]);
    });

    it('a second key for an existing user keeps the user\'s tier', async () => {
      await createKey(database.db, { tier: 'starter', userId: 'twice', now: 1 });
      const second = await createKey(database.db, { tier: 'enterprise', userId: 'twice', now: 2 });
      assert.equal(second.tier, 'starter');
    });
  });
}
