/**
 * Keys cached until they change (src/accounts/key-cache.ts over src/cache/, docs/keys.md),
 * on both backends, with the database's own change feed: a watched cache reads a
 * key once and not again past the short TTL; a change made through another connection
 * (as `translate-service keys revoke` in another process) is heard within a second; a
 * lookup that was in flight when a change was heard is not trusted afterwards; and on
 * PostgreSQL a LISTEN connection that drops falls back to the short TTL and counts as a
 * change when it comes back, so a revocation made while nobody listened still applies.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { KEY_CACHE_TTL_MS, KeyCache, WATCHED_TTL_MS } from '../../src/accounts/key-cache.js';
import { ChangeFeed } from '../../src/cache/change-feed.js';
import { watchChanges, type ChangeWatch } from '../../src/cache/change-watch.js';
import { createKey, type CreatedKey } from '../../src/accounts/keys.js';
import { parseDatabaseUrl } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { ACCOUNT_AND_MEMORY_CHANGES } from '../../src/db/migrations/010-account-and-memory-changes.js';
import { msUntil, sleep } from '../helpers/timing.js';
import { createTestDatabase, servicesFor, skipUnless, testBackends, type TestDatabase } from '../helpers/backends.js';

/** How the LISTEN connection names itself in pg_stat_activity (db/notifications.ts). */
const LISTEN_NAME = `translate-service LISTEN ${ACCOUNT_AND_MEMORY_CHANGES}`;



for (const backend of testBackends()) {
  describe(`keys cached until they change, on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let testDb: TestDatabase;
    /** The server's connection, and another one standing for another process. */
    let server: Database;
    let other: Database;
    let watch: ChangeWatch;
    /** The server's change feed, as services.ts makes it. */
    const feed = new ChangeFeed();
    let cache: KeyCache;

    before(async () => {
      testDb = await createTestDatabase(backend);
      server = openDatabase(parseDatabaseUrl(testDb.url));
      other = openDatabase(parseDatabaseUrl(testDb.url));
      await migrateToLatest(server.db);
      watch = await watchChanges(server, feed);
      cache = new KeyCache(server.db, { feed, clock: Date.now });
      await msUntil(async () => feed.watching);
    });
    after(async () => {
      await watch.close();
      cache.close();
      await server.close();
      await other.close();
      await testDb.drop();
    });

    const newKey = () => createKey(other.db, { tier: 'scale', now: Date.now() });
    /** Revokes straight in the table through the other connection, as another process would. */
    const revokeElsewhere = (key: CreatedKey) =>
      other.db.updateTable('api_keys').set({ revoked_at: Date.now() }).where('id', '=', key.keyId).execute();

    it('read a watched key once, and not again after the short TTL', async () => {
      const key = await newKey();
      await sleep(150); // the key's creation is a change too: let it be heard
      assert.ok(await cache.authenticate(key.key));
      const reads = cache.lookups.queryCount;
      await sleep(KEY_CACHE_TTL_MS + 200);
      assert.ok(await cache.authenticate(key.key));
      assert.equal(cache.lookups.queryCount, reads, 'no read while nothing changed');
    });

    /**
     * A cache on a clock the test moves, whose feed is heard and silent, and a key it read
     * that was then revoked unheard — what the watched life guards against.
     */
    async function revokedUnheard() {
      const clock = { now: 0 };
      const silent = new ChangeFeed();
      silent.setWatching(true);
      const lagging = new KeyCache(server.db, { feed: silent, clock: () => clock.now });
      const created = await newKey();
      assert.ok(await lagging.authenticate(created.key));
      await revokeElsewhere(created);
      return { lagging, clock, key: created.key };
    }

    it('answer a watched key past its life while it is read again, and apply what that read finds', async () => {
      const { lagging, clock, key } = await revokedUnheard();
      const reads = lagging.lookups.queryCount;
      clock.now = WATCHED_TTL_MS; // past every life drawn (half of it to all of it), within twice
      assert.ok(await lagging.authenticate(key), 'answered without waiting for the read');
      assert.ok(await lagging.authenticate(key), 'answers while it is read again');
      await msUntil(async () => (await lagging.authenticate(key)) === undefined);
      assert.equal(lagging.renewalCount, 1, 'one read renewed it');
      assert.equal(lagging.lookups.queryCount, reads + 1, 'then a request read for itself: a revoked key is not kept');
    });

    it('read a watched key unused for twice its life before answering', async () => {
      const { lagging, clock, key } = await revokedUnheard();
      clock.now = 2 * WATCHED_TTL_MS;
      assert.equal(await lagging.authenticate(key), undefined);
    });

    it('refuse a key revoked through another connection within a second', async () => {
      const key = await newKey();
      await sleep(150);
      assert.ok(await cache.authenticate(key.key));
      await revokeElsewhere(key);
      const ms = await msUntil(async () => (await cache.authenticate(key.key)) === undefined);
      assert.ok(ms < 1_000, `still accepted ${Math.round(ms)} ms after the revocation committed`);
    });

    it('do not trust a lookup that was in flight when a change was heard', async () => {
      const key = await newKey();
      await sleep(150);
      const reads = cache.lookups.queryCount;
      const inFlight = cache.authenticate(key.key);
      feed.changed();
      assert.ok(await inFlight);
      assert.ok(await cache.authenticate(key.key));
      assert.equal(cache.lookups.queryCount, reads + 2, 'read again: the first read may predate the change');
    });

    if (backend === 'postgres') {
      it('fall back to the short TTL while the LISTEN connection is down, and apply what it missed', async () => {
        const key = await newKey();
        await sleep(150);
        assert.ok(await cache.authenticate(key.key));
        // Drop the LISTEN connection from the server side, then revoke while nobody listens.
        await sql`select pg_terminate_backend(pid) from pg_stat_activity
                  where datname = current_database() and application_name = ${LISTEN_NAME}`.execute(other.db);
        await msUntil(async () => !feed.watching);
        await revokeElsewhere(key);
        const ms = await msUntil(async () => (await cache.authenticate(key.key)) === undefined);
        assert.ok(ms < 1_000, `still accepted ${Math.round(ms)} ms after the revocation committed`);
        await msUntil(async () => feed.watching);
      });

      it('stop trusting a LISTEN connection that falls silent (its server process frozen), within a second', async () => {
        const key = await newKey();
        await sleep(150);
        assert.ok(await cache.authenticate(key.key));
        const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity
          where datname = current_database() and application_name = ${LISTEN_NAME}`.execute(other.db);
        assert.equal(rows.length, 1, 'one LISTEN connection for key changes');
        const pid = rows[0]!.pid;
        // The backend stops answering but its socket stays open: nothing reports an error.
        process.kill(pid, 'SIGSTOP');
        try {
          await revokeElsewhere(key);
          const ms = await msUntil(async () => (await cache.authenticate(key.key)) === undefined);
          assert.ok(ms < 1_000, `still accepted ${Math.round(ms)} ms after the revocation committed`);
        } finally {
          process.kill(pid, 'SIGCONT');
        }
        await msUntil(async () => feed.watching);
      });
    }
  });
}
