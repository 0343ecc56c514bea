/**
 * Group commit of request charges (src/usage/group-commit.ts, docs/decisions/0023):
 * concurrent charges share one transaction, a bad charge fails alone, and no answer is
 * sent before its charge is committed — so a crash before the commit loses no charge
 * that was acknowledged.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { createKey } from '../../src/accounts/keys.js';
import { parseDatabaseUrl } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { chargeRequest, reserveTokens, tokensUsedInMonth } from '../../src/usage/ledger.js';
import { GroupCommit } from '../../src/usage/group-commit.js';
import { createTestDatabase, servicesFor, skipUnless, testBackends, type Backend, type TestDatabase } from '../helpers/backends.js';
import { startServed } from '../helpers/served.js';

const NOW = Date.parse('2026-11-20T12:00:00Z');

/** Holds the database's write lock on usage (from a connection of its own) until released. */
async function holdUsageWriteLock(backend: Backend, url: string): Promise<() => Promise<void>> {
  if (backend === 'sqlite') {
    const sqlite = new SqliteDatabase(parseDatabaseUrl(url).kind === 'sqlite' ? url.slice('sqlite:'.length) : url);
    sqlite.exec('begin immediate');
    return async () => {
      sqlite.exec('rollback');
      sqlite.close();
    };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('begin');
  // EXCLUSIVE lets readers through but no writer of usage_monthly.
  await client.query('lock table usage_monthly in exclusive mode');
  return async () => {
    await client.query('rollback');
    await client.end();
  };
}

async function usedTokens(backend: Backend, url: string): Promise<number> {
  if (backend === 'sqlite') {
    const sqlite = new SqliteDatabase(url.slice('sqlite:'.length), { readonly: true });
    try {
      return Number((sqlite.prepare('select coalesce(sum(tokens_used), 0) as n from usage_monthly').get() as { n: number }).n);
    } finally {
      sqlite.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query('select coalesce(sum(tokens_used), 0) as n from usage_monthly')).rows[0].n);
  } finally {
    await client.end();
  }
}

for (const backend of testBackends()) {
  describe(`group commit of request charges on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let created: TestDatabase;
    let database: Database;
    /** The process's group commit, as services.ts makes it. */
    let charges: GroupCommit;
    before(async () => {
      created = await createTestDatabase(backend);
      database = openDatabase(parseDatabaseUrl(created.url));
      charges = new GroupCommit(database.db);
      await migrateToLatest(database.db);
    });
    after(async () => {
      await charges.close();
      await database.close();
      await created.drop();
    });
    const user = async () => (await createKey(database.db, { tier: 'scale', now: NOW })).userId;

    it('commits the charges of concurrent requests in one transaction, each counted once', async () => {
      const users = [await user(), await user(), await user()];
      const before = charges.transactionCount;
      await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          chargeRequest(charges, { userId: users[i % 3]!, usage: { inputTokens: i, outputTokens: 1 }, now: NOW }),
        ),
      );
      assert.equal(charges.transactionCount - before, 1);
      const expected = users.map((_, u) => Array.from({ length: 20 }, (_, k) => 3 * k + u + 1).reduce((a, b) => a + b, 0));
      for (const [u, id] of users.entries()) assert.equal(await tokensUsedInMonth(database.db, id, NOW), expected[u]);
    });

    it('fails only the charge at fault; the others of its batch are committed', async () => {
      const id = await user();
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          // NaN cannot be stored in a NOT NULL integer column on either backend.
          chargeRequest(charges, { userId: id, usage: { inputTokens: i === 4 ? Number.NaN : 10, outputTokens: 5 }, now: NOW }),
        ),
      );
      assert.deepEqual(
        results.map((r) => r.status),
        results.map((_, i) => (i === 4 ? 'rejected' : 'fulfilled')),
      );
      assert.equal(await tokensUsedInMonth(database.db, id, NOW), 9 * 15);
    });

    it('drops each request\'s reservation in the same commit', async () => {
      const id = await user();
      const reservations = await Promise.all(
        [1, 2, 3].map(() => reserveTokens(database.db, { userId: id, estimate: 100, included: 1_000, now: NOW })),
      );
      await Promise.all(
        reservations.map((reservationId) =>
          chargeRequest(charges, { userId: id, usage: { inputTokens: 1, outputTokens: 1 }, reservationId, now: NOW }),
        ),
      );
      const left = await database.db.selectFrom('token_reservations').select('id').where('user_id', '=', id).execute();
      assert.deepEqual(left, []);
      assert.equal(await tokensUsedInMonth(database.db, id, NOW), 6);
    });
  });

  describe(`no answer before its charge is committed, on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    const send = (base: string, key: string, content: string) =>
      fetch(`${base}/translate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content, targets: ['fr'] }),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as { usage: { total_tokens: number } } }));

    it('answers only once the charge is committed', async () => {
      const served = await startServed(backend, { RATE_LIMIT_STORE: 'none' });
      try {
        const { key } = JSON.parse(served.cli('keys', 'create', '--tier', 'scale', '--json')) as { key: string };
        const release = await holdUsageWriteLock(backend, served.databaseUrl);
        let answered = 0;
        const requests = Array.from({ length: 5 }, (_, i) => send(served.base, key, `Sentence number ${i}.`).finally(() => (answered += 1)));
        await new Promise((r) => setTimeout(r, 600));
        assert.equal(answered, 0, 'an answer was sent while its charge could not be written');
        await release();
        const responses = await Promise.all(requests);
        assert.deepEqual(responses.map((r) => r.status), [200, 200, 200, 200, 200]);
        const charged = responses.reduce((sum, r) => sum + r.body.usage.total_tokens, 0);
        assert.equal(await usedTokens(backend, served.databaseUrl), charged);
      } finally {
        await served.close();
      }
    });

    it('a crash before the commit leaves no request acknowledged and nothing charged', async () => {
      const served = await startServed(backend, { RATE_LIMIT_STORE: 'none' });
      try {
        const { key } = JSON.parse(served.cli('keys', 'create', '--tier', 'scale', '--json')) as { key: string };
        const release = await holdUsageWriteLock(backend, served.databaseUrl);
        const outcomes = Promise.allSettled(Array.from({ length: 5 }, (_, i) => send(served.base, key, `Sentence number ${i}.`)));
        await new Promise((r) => setTimeout(r, 600));
        await served.kill();
        await release();
        assert.deepEqual((await outcomes).map((o) => o.status), ['rejected', 'rejected', 'rejected', 'rejected', 'rejected']);
        assert.equal(await usedTokens(backend, served.databaseUrl), 0);
      } finally {
        await served.close();
      }
    });
  });
}
