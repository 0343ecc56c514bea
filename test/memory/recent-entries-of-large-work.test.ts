/**
 * Recent entries (src/memory/translation-memory.ts) under a piece of work larger than
 * they hold: a lookup keeps only the last hits that fit (the ones a lookup that kept
 * every hit in turn would have left), and the saves of a request with more pairs than fit
 * keep none — call by call they would only evict each other and everything else kept.
 * Entries are deleted behind the memory's back (no change feed heard), so what a lookup
 * still finds is what was kept.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ChangeFeed } from '../../src/cache/change-feed.js';
import { parseDatabaseUrl } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { saveMemory } from '../../src/memory/store.js';
import { RECENT_ENTRIES, TranslationMemory } from '../../src/memory/translation-memory.js';
import { createTestDatabase, servicesFor, skipUnless, testBackends, type TestDatabase } from '../helpers/backends.js';

const NOW = 1_000_000;

for (const backend of testBackends()) {
  describe(`recent memory entries under a large piece of work, on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let testDb: TestDatabase;
    let database: Database;
    let memory: TranslationMemory;
    const user = 'user-large';
    const forgetBehindItsBack = () => database.db.deleteFrom('translation_memory').execute();
    before(async () => {
      testDb = await createTestDatabase(backend);
      database = openDatabase(parseDatabaseUrl(testDb.url));
      await migrateToLatest(database.db);
      await database.db.insertInto('users').values({ id: user, tier: 'free', created_at: 0 }).execute();
      memory = new TranslationMemory(database.db, { feed: new ChangeFeed(), clock: () => NOW });
    });
    after(async () => {
      memory.close();
      await database.close();
      await testDb.drop();
    });

    it('a lookup of more hits than fit keeps the last of them', async () => {
      const keys = Array.from({ length: RECENT_ENTRIES + 2_000 }, (_, i) => `hit-${i}`);
      await saveMemory(database.db, user, keys.map((key) => ({ key, translation: `t ${key}` })), NOW);
      const found = await memory.forUser(user).lookup(keys);
      assert.equal(found.size, keys.length);
      await forgetBehindItsBack();
      const last = keys.slice(-100);
      const kept = await memory.forUser(user).lookup(last);
      assert.deepEqual([...kept.keys()], last, 'the last hits are kept');
      assert.equal(kept.get(last[0]!), `t ${last[0]}`);
      const first = await memory.forUser(user).lookup(keys.slice(0, 100));
      assert.equal(first.size, 0, 'the first ones were pushed out by the later ones');
    });

    it('the saves of a request with more pairs than fit are not kept; a smaller request’s are', async () => {
      const segmentMemory = memory.forUser(user);
      await segmentMemory.save([{ key: 'large-1', translation: 'from a large request' }], RECENT_ENTRIES + 1);
      await segmentMemory.save([{ key: 'small-1', translation: 'from a small request' }], 2);
      await forgetBehindItsBack();
      const found = await segmentMemory.lookup(['large-1', 'small-1']);
      assert.deepEqual([...found], [['small-1', 'from a small request']]);
    });
  });
}
