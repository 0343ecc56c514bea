/**
 * Short lookups of concurrent requests share statements, and entries read lately are
 * kept in the process (src/memory/translation-memory.ts over src/cache/, docs/memory.md):
 * each user still gets only its own entries, even where users hold the same key; a hit
 * unused for a day is dated again; a forgotten entry is gone at once in this process and
 * within RECENT_ENTRY_MS in any other, or at once when the change feed is heard.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ChangeFeed } from '../../src/cache/change-feed.js';
import { watchChanges, type ChangeWatch } from '../../src/cache/change-watch.js';
import { parseDatabaseUrl } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { saveMemory } from '../../src/memory/store.js';
import { RECENT_ENTRY_MS, TranslationMemory, WATCHED_ENTRY_MS } from '../../src/memory/translation-memory.js';
import { msUntil, sleep } from '../helpers/timing.js';
import { createTestDatabase, servicesFor, skipUnless, testBackends, type TestDatabase } from '../helpers/backends.js';

const DAY = 24 * 60 * 60 * 1000;

for (const backend of testBackends()) {
  describe(`memory lookups that arrive together, on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let testDb: TestDatabase;
    let database: Database;
    /** This process's memory, with no change feed heard: entries are kept RECENT_ENTRY_MS. */
    let memory: TranslationMemory;
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
      memory = new TranslationMemory(database.db, { feed: new ChangeFeed(), clock });
    });
    after(async () => {
      memory.close();
      await database.close();
      await testDb.drop();
    });

    it('give each user its own entries only, in fewer statements than lookups', async () => {
      const reads = memory.reads;
      const before = reads.queryCount;
      // Each asks for the shared key, its own, its neighbour's own and one nobody holds.
      const found = await Promise.all(
        users.map((user, i) => memory.forUser(user).lookup(['shared', `own-${i}`, `own-${(i + 1) % users.length}`, 'missing'])),
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
      const found = await memory.forUser(late).lookup(['shared']);
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
      const reads = memory.reads;
      const own = memory.forUser(users[1]!);
      await own.lookup(['own-1']);
      const before = reads.queryCount;
      assert.equal((await own.lookup(['own-1'])).get('own-1'), `own of ${users[1]}`);
      assert.equal(reads.queryCount, before, 'a recent entry needs no statement');

      await memory.forget(users[1]!);
      assert.equal((await own.lookup(['own-1'])).size, 0, 'forgotten in this process at once');
      assert.equal(reads.queryCount, before + 1);
    });

    it('stop serving an entry another process deleted within RECENT_ENTRY_MS', async () => {
      const own = memory.forUser(users[2]!);
      assert.equal((await own.lookup(['own-2'])).size, 1);
      // As another process's DELETE /v1/memory would: straight in the table.
      await database.db.deleteFrom('translation_memory').where('user_id', '=', users[2]!).execute();
      now += RECENT_ENTRY_MS - 1;
      assert.equal((await own.lookup(['own-2'])).size, 1, 'kept within RECENT_ENTRY_MS');
      now += 2;
      assert.equal((await own.lookup(['own-2'])).size, 0);
    });
  });
}

for (const backend of testBackends()) {
  describe(`recent memory entries while the change feed is heard, on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let testDb: TestDatabase;
    /** The server's connection, and another one standing for another process. */
    let server: Database;
    let other: Database;
    let watch: ChangeWatch;
    /** The server's feed and memory, as services.ts makes them. */
    const feed = new ChangeFeed();
    let memory: TranslationMemory;
    const clock = () => Date.now();
    const users = ['kept', 'deleted', 'in-flight', 'untouched', 'renewed'];

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
      memory = new TranslationMemory(server.db, { feed, clock });
      watch = await watchChanges(server, feed);
      await msUntil(async () => feed.watching);
    });
    after(async () => {
      await watch.close();
      memory.close();
      await Promise.all([server.close(), other.close()]);
      await testDb.drop();
    });

    it('answer an entry past RECENT_ENTRY_MS without a statement while nothing changed', async () => {
      const own = memory.forUser('kept');
      assert.equal((await own.lookup(['hello'])).get('hello'), 'hello for kept');
      const before = memory.reads.queryCount;
      await sleep(RECENT_ENTRY_MS + 200);
      assert.equal((await own.lookup(['hello'])).get('hello'), 'hello for kept');
      assert.equal(memory.reads.queryCount, before, 'kept while the feed is heard and silent');
    });

    it('stop serving an entry another process deleted within RECENT_ENTRY_MS of the deletion', async () => {
      const own = memory.forUser('deleted');
      assert.equal((await own.lookup(['hello'])).size, 1);
      await sleep(RECENT_ENTRY_MS + 200);
      assert.equal((await own.lookup(['hello'])).size, 1, 'kept past the short rule');
      // As another process's DELETE /v1/memory would: straight in the table, its own connection.
      await other.db.deleteFrom('translation_memory').where('user_id', '=', 'deleted').execute();
      const ms = await msUntil(async () => (await own.lookup(['hello'])).size === 0);
      assert.ok(ms < RECENT_ENTRY_MS, `served ${Math.round(ms)} ms after the deletion`);
    });

    /**
     * `user`'s memory on a clock the test moves, whose feed is heard and silent (a deletion
     * goes unheard, as the life guards against); its entry read once.
     */
    async function readOnceUnheard(user: string) {
      const at = { now: 0 };
      const silent = new ChangeFeed();
      silent.setWatching(true);
      const own = new TranslationMemory(server.db, { feed: silent, clock: () => at.now });
      const lookup = (keys: string[]) => own.forUser(user).lookup(keys);
      assert.equal((await lookup(['hello'])).get('hello'), `hello for ${user}`);
      return { own, lookup, at };
    }

    it('answer an entry past its life while it is read again, and drop it when that read finds it gone', async () => {
      const { own, lookup, at } = await readOnceUnheard('renewed');
      try {
        await other.db.deleteFrom('translation_memory').where('user_id', '=', 'renewed').execute();
        const before = own.reads.queryCount;
        at.now = WATCHED_ENTRY_MS; // past every life drawn (half of it to all of it), within twice
        assert.equal((await lookup(['hello'])).get('hello'), 'hello for renewed', 'answered without waiting for the read');
        assert.equal((await lookup(['hello'])).get('hello'), 'hello for renewed', 'answers while it is read again');
        // Read again in the background; once that read finds the row gone it is not served.
        await msUntil(async () => (await lookup(['hello'])).size === 0);
        assert.equal(own.renewalCount, 1, 'one read renewed it');
        assert.equal(own.reads.queryCount, before + 1, 'no request read it until the renewal dropped it');
      } finally {
        own.close();
      }
    });

    it('read an entry unused for twice its life before answering', async () => {
      const { own, lookup, at } = await readOnceUnheard('kept');
      try {
        const before = own.reads.queryCount;
        at.now = 2 * WATCHED_ENTRY_MS;
        assert.equal((await lookup(['hello'])).get('hello'), 'hello for kept');
        assert.equal(own.reads.queryCount, before + 1, 'read before it answered');
      } finally {
        own.close();
      }
    });

    it('do not trust a read that was in flight when a change was heard', async () => {
      const own = memory.forUser('in-flight');
      const before = memory.reads.queryCount;
      const inFlight = own.lookup(['hello']);
      feed.changed();
      assert.equal((await inFlight).get('hello'), 'hello for in-flight');
      assert.equal((await own.lookup(['hello'])).get('hello'), 'hello for in-flight');
      assert.equal(memory.reads.queryCount, before + 2, 'read again: the first read may predate the change');
    });

    it('keep entries only by the short rule while the feed is not heard', async () => {
      await watch.close();
      try {
        assert.equal(feed.watching, false);
        const own = memory.forUser('untouched');
        assert.equal((await own.lookup(['hello'])).size, 1);
        const before = memory.reads.queryCount;
        assert.equal((await own.lookup(['hello'])).size, 1);
        assert.equal(memory.reads.queryCount, before, 'kept within RECENT_ENTRY_MS');
        await sleep(RECENT_ENTRY_MS + 200);
        assert.equal((await own.lookup(['hello'])).size, 1);
        assert.equal(memory.reads.queryCount, before + 1, 'read again past RECENT_ENTRY_MS');
      } finally {
        watch = await watchChanges(server, feed);
      }
    });
  });
}
