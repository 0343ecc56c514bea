/**
 * Statements sized by their time (src/db/statement-size.ts), and the memory table's loops
 * that use it: a slow table gets smaller statements, a fast one the most, and every row is
 * written and read whatever the sizes were.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseDatabaseUrl } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { StatementSize } from '../../src/db/statement-size.js';
import { lookupMemory, saveMemory } from '../../src/memory/store.js';
import { createTestDatabase, servicesFor, skipUnless, testBackends, type TestDatabase } from '../helpers/backends.js';
import { testTurns } from '../helpers/turns.js';

/** A StatementSize whose statements each take `msPerRow` a row of its clock; `sizes` are the rows each statement had. */
function slowTable(msPerRow: number) {
  let now = 0;
  const sizes: number[] = [];
  const size = new StatementSize(() => now, 50, 500, 8);
  const timed = {
    get size() {
      return size.size;
    },
    start: () => size.start(),
    took(count: number, started: number) {
      sizes.push(count);
      now += count * msPerRow;
      size.took(count, started);
    },
  } as unknown as StatementSize;
  return { timed, sizes, size };
}

describe('statements sized by their time', () => {
  it('start at the most, shrink toward the target when statements are slow, and stop at the fewest', () => {
    let now = 0;
    const size = new StatementSize(() => now, 50, 500, 8);
    assert.equal(size.size, 500);
    const time = (count: number, ms: number) => {
      const started = size.start();
      now += ms;
      size.took(count, started);
    };
    time(500, 80); // 0.16 ms a row: 50 rows fit 8 ms; halfway there
    assert.equal(size.size, 275);
    for (let i = 0; i < 20; i++) time(size.size, size.size * 0.16);
    assert.ok(size.size <= 51 && size.size >= 50, `settled at ${size.size}`);
    for (let i = 0; i < 20; i++) time(size.size, size.size * 1);
    assert.equal(size.size, 50, 'never under the fewest');
    for (let i = 0; i < 20; i++) time(size.size, size.size * 0.001);
    assert.equal(size.size, 500, 'back to the most once statements are fast');
  });

  it('a last, short statement does not move the size', () => {
    let now = 0;
    const size = new StatementSize(() => now, 50, 500, 8);
    const started = size.start();
    now += 100;
    size.took(10, started);
    assert.equal(size.size, 500);
  });
});

for (const backend of testBackends()) {
  describe(`the memory table's statements sized by their time, on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let testDb: TestDatabase;
    let database: Database;
    before(async () => {
      testDb = await createTestDatabase(backend);
      database = openDatabase(parseDatabaseUrl(testDb.url));
      await migrateToLatest(database.db);
      await database.db.insertInto('users').values({ id: 'user-sized', tier: 'free', created_at: 0 }).execute();
    });
    after(async () => {
      await database.close();
      await testDb.drop();
    });

    it('a slow table gets smaller inserts and lookups, and every entry is saved and found', async () => {
      const entries = Array.from({ length: 2_000 }, (_, i) => ({ key: `k-${i}`, translation: `t-${i}` }));
      const saves = slowTable(0.5);
      await saveMemory(database.db, 'user-sized', entries, 1, testTurns(), saves.timed);
      assert.equal(saves.sizes[0], 500);
      assert.ok(saves.sizes.at(-2)! < 100, `insert sizes ${saves.sizes.join(', ')}`);
      assert.equal(saves.sizes.reduce((sum, n) => sum + n, 0), entries.length);
      const reads = slowTable(0.2);
      const found = await lookupMemory(database.db, 'user-sized', entries.map((entry) => entry.key), 1, testTurns(), reads.timed);
      assert.ok(reads.sizes.length > 4, `lookup sizes ${reads.sizes.join(', ')}`);
      assert.equal(found.size, entries.length);
      assert.equal(found.get('k-1999'), 't-1999');
    });
  });
}
