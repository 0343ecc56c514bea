/**
 * Short lookups of concurrent requests share statements (src/memory/user-memory.ts,
 * decision 0037): each user still gets only its own entries, even where users hold the
 * same key, and a hit unused for a day is dated again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseDatabaseUrl } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
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
    before(async () => {
      testDb = await createTestDatabase(backend);
      database = openDatabase(parseDatabaseUrl(testDb.url));
      await migrateToLatest(database.db);
      await database.db
        .insertInto('users')
        .values(users.map((id) => ({ id, tier: 'free', created_at: 0 })))
        .execute();
      // Every user holds `shared` (with its own translation) and one key of its own.
      for (const [i, user] of users.entries()) {
        await saveMemory(database.db, user, [
          { key: 'shared', translation: `shared for ${user}` },
          { key: `own-${i}`, translation: `own of ${user}` },
        ], now);
      }
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

    it('date a hit unused for a day again, through the shared path too', async () => {
      now += 2 * DAY;
      const found = await userMemory(database.db, users[0]!, clock).lookup(['shared']);
      assert.equal(found.get('shared'), `shared for ${users[0]}`);
      const row = await database.db
        .selectFrom('translation_memory')
        .select(['last_used_at'])
        .where('user_id', '=', users[0]!)
        .where('entry_key', '=', 'shared')
        .executeTakeFirstOrThrow();
      assert.equal(Number(row.last_used_at), now);
    });
  });
}
