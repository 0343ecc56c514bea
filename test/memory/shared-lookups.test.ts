/**
 * Short lookups of concurrent requests share statements, and entries of the last second
 * are kept in the process (src/memory/user-memory.ts, recent-entries.ts, decision 0037):
 * each user still gets only its own entries, even where users hold the same key; a hit
 * unused for a day is dated again; a forgotten entry is gone at once in this process and
 * within RECENT_ENTRY_MS in any other.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseDatabaseUrl } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { RECENT_ENTRY_MS } from '../../src/memory/recent-entries.js';
import { forgetUserMemory } from '../../src/memory/service.js';
import { saveMemory } from '../../src/memory/store.js';
import { sharedReads, userMemory } from '../../src/memory/user-memory.js';
import { createTestDatabase, servicesFor, skipUnless, testBackends, type TestDatabase } from '../helpers/backends.js';

const DAY = 24 * 60 * 60 * 1000;

for (const backend of testBackends()) {
  describe(`memory lookups that arrive together, on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let testDb: TestDatabase;
    let database: Database;
    let now = 10 * DAY;
    const clock = () => now;
    const users = Array.from({ length: 30 }, (_, i) => `user-${i}`);
    /** Not read by the first test, so none of its entries are recent. */
    const late = 'user-late';
    before(async () => {
      testDb = await createTestDatabase(backend);
      database = openDatabase(parseDatabaseUrl(testDb.url));
      await migrateToLatest(database.db);
      await database.db
        .insertInto('users')
        .values([...users, late].map((id) => ({ id, tier: 'free', created_at: 0 })))
        .execute();
      // Every user holds `shared` (with its own translation) and one key of its own.
      for (const [i, user] of users.entries()) {
        await saveMemory(database.db, user, [
          { key: 'shared', translation: `shared for ${user}` },
          { key: `own-${i}`, translation: `own of ${user}` },
        ], now);
      }
      await saveMemory(database.db, late, [{ key: 'shared', translation: `shared for ${late}` }], now);
    });
    after(async () => {
      await database.close();
      await testDb.drop();
    });

    it('give each user its own entries only, in fewer statements than lookups', async () => {
      const reads = sharedReads(database.db, clock);
      const before = reads.queryCount;
      // Each asks for the shared key, its own, its neighbour's own and one nobody holds.
      const found = await Promise.all(
        users.map((user, i) => userMemory(database.db, user, clock).lookup(['shared', `own-${i}`, `own-${(i + 1) % users.length}`, 'missing'])),
      );
      for (const [i, user] of users.entries()) {
        assert.deepEqual(
          Object.fromEntries(found[i]!),
          { shared: `shared for ${user}`, [`own-${i}`]: `own of ${user}` },
          user,
        );
      }
      const statements = reads.queryCount - before;
      assert.ok(statements < users.length, `${statements} statements for ${users.length} lookups`);
    });

    it('date a hit unused for a day again', async () => {
      now += 2 * DAY;
      const found = await userMemory(database.db, late, clock).lookup(['shared']);
      assert.equal(found.get('shared'), `shared for ${late}`);
      const row = await database.db
        .selectFrom('translation_memory')
        .select(['last_used_at'])
        .where('user_id', '=', late)
        .where('entry_key', '=', 'shared')
        .executeTakeFirstOrThrow();
      assert.equal(Number(row.last_used_at), now);
    });

    it('answer an entry read within the last second without a statement; forgetting drops it at once', async () => {
      const reads = sharedReads(database.db, clock);
      const memory = userMemory(database.db, users[1]!, clock);
      await memory.lookup(['own-1']);
      const before = reads.queryCount;
      assert.equal((await memory.lookup(['own-1'])).get('own-1'), `own of ${users[1]}`);
      assert.equal(reads.queryCount, before, 'a recent entry needs no statement');

      await forgetUserMemory({ database }, users[1]!);
      assert.equal((await memory.lookup(['own-1'])).size, 0, 'forgotten in this process at once');
      assert.equal(reads.queryCount, before + 1);
    });

    it('stop serving an entry another process deleted within RECENT_ENTRY_MS', async () => {
      const memory = userMemory(database.db, users[2]!, clock);
      assert.equal((await memory.lookup(['own-2'])).size, 1);
      // As another process's DELETE /v1/memory would: straight in the table.
      await database.db.deleteFrom('translation_memory').where('user_id', '=', users[2]!).execute();
      await new Promise((resolve) => setTimeout(resolve, RECENT_ENTRY_MS + 100));
      assert.equal((await memory.lookup(['own-2'])).size, 0);
    });
  });
}
