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
import { RECENT_ENTRY_MS, RecentEntries, recentEntriesOf, WATCHED_ENTRY_MS } from '../../src/memory/recent-entries.js';
import { processSingleFlight } from '../../src/memory/single-flight.js';
import { watchKeyChanges, type KeyChangeWatch } from '../../src/accounts/key-change-watch.js';
import { keyChangesOf } from '../../src/accounts/key-changes.js';
import { forgetUserMemory } from '../../src/memory/service.js';
import { saveMemory, userEntry } from '../../src/memory/store.js';
import { sharedReads, userMemory } from '../../src/memory/user-memory.js';
import { msUntil, sleep } from '../helpers/timing.js';
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

for (const backend of testBackends()) {
  describe(`recent memory entries while the change feed is heard, on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let testDb: TestDatabase;
    /** The server's connection, and another one standing for another process. */
    let server: Database;
    let other: Database;
    let watch: KeyChangeWatch;
    const clock = () => 10 * DAY;
    const users = ['kept', 'deleted', 'in-flight', 'untouched', 'renewed'];
    const feed = () => keyChangesOf(server.db);

    before(async () => {
      testDb = await createTestDatabase(backend);
      server = openDatabase(parseDatabaseUrl(testDb.url));
      other = openDatabase(parseDatabaseUrl(testDb.url));
      await migrateToLatest(server.db);
      await server.db
        .insertInto('users')
        .values(users.map((id) => ({ id, tier: 'free', created_at: 0 })))
        .execute();
      for (const user of users) await saveMemory(server.db, user, [{ key: 'hello', translation: `hello for ${user}` }], clock());
      // As services.ts wires a server: memory follows the feed the key watch hears.
      recentEntriesOf(server.db).follow(feed());
      watch = await watchKeyChanges(server);
      await msUntil(async () => feed().watching);
    });
    after(async () => {
      await watch.close();
      await Promise.all([server.close(), other.close()]);
      await testDb.drop();
    });

    it('answer an entry past RECENT_ENTRY_MS without a statement while nothing changed', async () => {
      const reads = sharedReads(server.db, clock);
      const memory = userMemory(server.db, 'kept', clock);
      assert.equal((await memory.lookup(['hello'])).get('hello'), 'hello for kept');
      const before = reads.queryCount;
      await sleep(RECENT_ENTRY_MS + 200);
      assert.equal((await memory.lookup(['hello'])).get('hello'), 'hello for kept');
      assert.equal(reads.queryCount, before, 'kept while the feed is heard and silent');
    });

    it('stop serving an entry another process deleted within RECENT_ENTRY_MS of the deletion', async () => {
      const memory = userMemory(server.db, 'deleted', clock);
      assert.equal((await memory.lookup(['hello'])).size, 1);
      await sleep(RECENT_ENTRY_MS + 200);
      assert.equal((await memory.lookup(['hello'])).size, 1, 'kept past the short rule');
      // As another process's DELETE /v1/memory would: straight in the table, its own connection.
      await other.db.deleteFrom('translation_memory').where('user_id', '=', 'deleted').execute();
      const ms = await msUntil(async () => (await memory.lookup(['hello'])).size === 0);
      assert.ok(ms < RECENT_ENTRY_MS, `served ${Math.round(ms)} ms after the deletion`);
    });

    /**
     * `user`'s memory through recent entries on a clock the test moves, whose feed is heard
     * and silent (a deletion goes unheard, as the life guards against); its entry read once.
     */
    async function readOnceUnwatched(user: string) {
      const at = { now: 0 };
      const recent = new RecentEntries(() => at.now);
      recent.follow({ generation: 0, watching: true });
      const memory = userMemory(server.db, user, clock, processSingleFlight, recent);
      assert.equal((await memory.lookup(['hello'])).get('hello'), `hello for ${user}`);
      return { recent, memory, at, reads: sharedReads(server.db, clock) };
    }

    it('answer an entry past its life while it is read again, and drop it when that read finds it gone', async () => {
      const { recent, memory, at, reads } = await readOnceUnwatched('renewed');
      await other.db.deleteFrom('translation_memory').where('user_id', '=', 'renewed').execute();
      const before = reads.queryCount;
      at.now = WATCHED_ENTRY_MS; // past every life drawn (half of it to all of it), within twice
      assert.equal((await memory.lookup(['hello'])).get('hello'), 'hello for renewed', 'answered without waiting for the read');
      assert.equal((await memory.lookup(['hello'])).get('hello'), 'hello for renewed', 'answers while it is read again');
      // Read again in the background (nothing here looks it up): it finds the row gone.
      await msUntil(async () => recent.get(userEntry('renewed', 'hello')) === undefined);
      assert.equal(reads.queryCount, before, 'no request read it');
      assert.equal((await memory.lookup(['hello'])).size, 0, 'not served again');
    });

    it('read an entry unused for twice its life before answering', async () => {
      const { memory, at, reads } = await readOnceUnwatched('kept');
      const before = reads.queryCount;
      at.now = 2 * WATCHED_ENTRY_MS;
      assert.equal((await memory.lookup(['hello'])).get('hello'), 'hello for kept');
      assert.equal(reads.queryCount, before + 1, 'read before it answered');
    });

    it('do not trust a read that was in flight when a change was heard', async () => {
      const recent = recentEntriesOf(server.db);
      const generation = recent.generation;
      // The read began before the change and finishes after it: kept by the short rule only.
      feed().changed();
      recent.remember(userEntry('in-flight', 'stale'), 'read before the change', generation);
      assert.equal(recent.get(userEntry('in-flight', 'stale'))?.translation, 'read before the change');
      await sleep(RECENT_ENTRY_MS + 200);
      assert.equal(recent.get(userEntry('in-flight', 'stale')), undefined);
    });

    it('keep entries only by the short rule while the feed is not heard', async () => {
      await watch.close();
      try {
        assert.equal(feed().watching, false);
        const recent = recentEntriesOf(server.db);
        recent.remember(userEntry('untouched', 'unwatched'), 'kept while nothing is heard', recent.generation);
        await sleep(RECENT_ENTRY_MS + 200);
        assert.equal(recent.get(userEntry('untouched', 'unwatched')), undefined);
      } finally {
        watch = await watchKeyChanges(server);
      }
    });
  });
}
