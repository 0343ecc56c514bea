/**
 * The SQLite statement cache (src/db/sqlite-statement-cache.ts): one prepared statement
 * per SQL text, reused with new parameters, and never more than its capacity.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { cachingStatements } from '../../src/db/sqlite-statement-cache.js';

describe('SQLite statement cache', () => {
  it('prepares a SQL text once and gives each run its own parameters and results', async () => {
    const sqlite = new SqliteDatabase(':memory:');
    let prepared = 0;
    const prepare = sqlite.prepare.bind(sqlite);
    sqlite.prepare = ((text: string) => {
      prepared += 1;
      return prepare(text);
    }) as typeof sqlite.prepare;
    const cache = cachingStatements(sqlite);
    const db = new Kysely<{ t: { id: number; name: string } }>({ dialect: new SqliteDialect({ database: cache }) });
    await sql`create table t (id integer primary key, name text not null)`.execute(db);
    for (let id = 1; id <= 50; id++) await db.insertInto('t').values({ id, name: `n${id}` }).execute();
    const names = [];
    for (const id of [7, 42, 3]) names.push((await db.selectFrom('t').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name);
    assert.deepEqual(names, ['n7', 'n42', 'n3']);
    // create table, one insert text, one select text.
    assert.equal(prepared, 3);
    const result = await db.updateTable('t').set({ name: 'x' }).where('id', '<', 11).executeTakeFirst();
    assert.equal(result.numUpdatedRows, 10n);
    await db.destroy();
  });

  it('keeps at most its capacity, evicting the least recently used text', async () => {
    const sqlite = new SqliteDatabase(':memory:');
    const cache = cachingStatements(sqlite, 3);
    const first = cache.prepare('select 1');
    cache.prepare('select 2');
    cache.prepare('select 3');
    assert.equal(cache.prepare('select 1'), first, 'a hit returns the same statement');
    cache.prepare('select 4'); // evicts "select 2", the least recently used
    assert.equal(cache.cachedStatements, 3);
    assert.equal(cache.prepare('select 1'), first);
    assert.equal((cache.prepare('select 2').get() as Record<string, number>)['2'], 2);
    cache.close();
  });
});
