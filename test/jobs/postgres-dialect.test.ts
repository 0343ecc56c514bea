/**
 * What only the PostgreSQL dialect does: claims from many connections at once never
 * hand one job to two workers (FOR UPDATE SKIP LOCKED), and LISTEN/NOTIFY wakes idle
 * workers in other processes — also after its connection was cut.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { skipUnless, testBackends } from '../helpers/backends.js';
import { claimOne, openQueueFixture, type QueueFixture } from './queue-setup.js';

const skip = testBackends().includes('postgres')
  ? await skipUnless({ backend: 'postgres' })
  : 'SKIPPED: TEST_DATABASES does not include postgres';

describe('postgres job dialect', { skip }, () => {
  let q: QueueFixture;
  before(async () => {
    q = await openQueueFixture('postgres');
  });
  after(async () => {
    await q?.close();
  });

  test('claims racing on separate connection pools hand out every job exactly once, oldest first', async () => {
    const userId = await q.user();
    const base = Date.now() - 60_000;
    const jobs = [];
    for (let i = 0; i < 120; i++) jobs.push(await q.enqueue(userId, `job ${i}`, base + i));
    const pools = [q.openAnother(), q.openAnother(), q.openAnother()];
    const claimed: string[] = [];
    await Promise.all(
      Array.from({ length: 24 }, async (_, n) => {
        const { database, dialect } = pools[n % pools.length]!;
        for (;;) {
          const job = await claimOne(dialect, database.db, `w${n}`, 60_000, Date.now());
          if (!job) return;
          claimed.push(job.id);
        }
      }),
    );
    assert.equal(claimed.length, 120);
    assert.equal(new Set(claimed).size, 120, 'no job claimed twice');
    const rows = await q.database.db.selectFrom('jobs').select(['status', 'attempts']).where('user_id', '=', userId).execute();
    assert.ok(rows.every((r) => r.status === 'processing' && r.attempts === 1));
    // With nothing else pending the first claim of a fresh queue is its oldest job.
    const next = await q.enqueue(userId, 'later', base - 1);
    await q.enqueue(userId, 'latest', base + 1_000);
    assert.equal((await claimOne(q.dialect, q.database.db, 'w', 60_000, Date.now()))?.id, next.id);
  });

  test('a job that is not due yet (retry backoff) is not claimed', async () => {
    await q.database.db.updateTable('jobs').set({ status: 'completed' }).execute();
    const userId = await q.user();
    const job = await q.enqueue(userId);
    await q.database.db.updateTable('jobs').set({ run_at: Date.now() + 60_000 }).where('id', '=', job.id).execute();
    assert.equal(await claimOne(q.dialect, q.database.db, 'w', 60_000, Date.now()), undefined);
    assert.equal((await claimOne(q.dialect, q.database.db, 'w', 60_000, Date.now() + 61_000))?.id, job.id);
  });

  test('notify from one process wakes a subscriber in another within milliseconds', async () => {
    const other = q.openAnother();
    let nudges = 0;
    let wake: () => void = () => {};
    const unsubscribe = await other.dialect.subscribe(() => {
      nudges += 1;
      wake();
    });
    await new Promise((r) => setTimeout(r, 50));
    nudges = 0;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    const started = performance.now();
    await q.dialect.notify(q.database.db);
    await woken;
    const elapsed = performance.now() - started;
    assert.ok(elapsed < 500, `woken after ${elapsed} ms`);
    assert.ok(nudges >= 1);
    await unsubscribe();
  });

  test('the LISTEN connection reconnects after it is killed, nudges on reconnect, and hears later notifications', async () => {
    const other = q.openAnother();
    let nudges = 0;
    const unsubscribe = await other.dialect.subscribe(() => {
      nudges += 1;
    });
    const listeners = await sql<{ pid: number }>`
      select pid from pg_stat_activity where datname = current_database() and query ilike 'listen%'`.execute(q.database.db);
    assert.ok(listeners.rows.length >= 1, 'a LISTEN connection is open');
    nudges = 0;
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen%'`.execute(q.database.db);
    await waitUntil(() => nudges >= 1, 5_000, 'the reconnect nudges (a notification may have been missed)');
    nudges = 0;
    await q.dialect.notify(q.database.db);
    await waitUntil(() => nudges >= 1, 2_000, 'a notification after the reconnect arrives');
    await unsubscribe();
    const left = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'listen%'`.execute(q.database.db);
    assert.equal(left.rows[0]?.n, 0, 'unsubscribing the last subscriber closes the LISTEN connection');
  });

  test('two workers on separate pools, woken by NOTIFY, complete every job exactly once', async () => {
    await q.database.db.updateTable('jobs').set({ status: 'completed' }).where('status', '!=', 'completed').execute();
    const userId = await q.user();
    const a = q.worker({ pollIntervalMs: 60_000, concurrency: 3 });
    const otherPool = q.openAnother();
    const b = q.worker({ pollIntervalMs: 60_000, concurrency: 3, db: otherPool.database.db, dialect: otherPool.dialect });
    await a.start();
    await b.start();
    const completedBy = new Map<string, string[]>();
    for (const [name, worker] of [['a', a], ['b', b]] as const) {
      worker.on('job:complete', (id: string) => completedBy.set(id, [...(completedBy.get(id) ?? []), name]));
    }
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) {
      const job = await q.enqueue(userId, `Message ${i}`);
      ids.push(job.id);
      await q.dialect.notify(q.database.db);
    }
    // The fallback poll is a minute away: only notifications can have woken them.
    await Promise.all([
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${completedBy.size} of 60 completed`)), 10_000);
        const check = () => {
          if (ids.every((id) => completedBy.has(id))) {
            clearTimeout(timer);
            resolve();
          } else setTimeout(check, 20);
        };
        check();
      }),
    ]);
    assert.ok([...completedBy.values()].every((by) => by.length === 1), 'each job completed by one worker once');
    const byWorker = [...completedBy.values()].map((by) => by[0]);
    assert.ok(byWorker.includes('a') && byWorker.includes('b'), 'both workers took jobs');
    const rows = await q.database.db.selectFrom('jobs').select(['status', 'attempts']).where('user_id', '=', userId).execute();
    assert.ok(rows.every((r) => r.status === 'completed' && r.attempts === 1));
  });
});

async function waitUntil(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
