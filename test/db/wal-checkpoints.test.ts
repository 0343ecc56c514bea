/**
 * SQLite's log is checkpointed by a worker thread, not by the service's connection inside a
 * commit (db/wal-checkpoints.ts, decision 0107). Pages reach the database file only by a
 * checkpoint, so the file's size says who checkpointed: with the worker not started the
 * rows stay in the log; once the log has grown past the start point they reach the file
 * while the main connection only writes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/database.js';
import { checkpointOffTheMainThread } from '../../src/db/wal-checkpoints.js';

const dir = mkdtempSync(join(tmpdir(), 'wal-checkpoints-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function openWal(name: string): { sqlite: SqliteDatabase.Database; path: string; write(bytes: number): void } {
  const path = join(dir, name);
  const sqlite = new SqliteDatabase(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.exec('create table rows (id integer primary key, body text)');
  const insert = sqlite.prepare('insert into rows (body) values (?)');
  const write = (bytes: number) => {
    for (let written = 0; written < bytes; written += 1000) insert.run(`${written}`.padEnd(1000, 'x'));
  };
  return { sqlite, path, write };
}

const fileBytes = (path: string) => statSync(path).size;

/** The service's connection, counted: each of its checkpoints is work on the main thread. */
function countCheckpoints(sqlite: SqliteDatabase.Database): { readonly count: number } {
  const counted = { count: 0 };
  const pragma = sqlite.pragma.bind(sqlite);
  sqlite.pragma = ((source: string, options?: SqliteDatabase.PragmaOptions) => {
    if (source.startsWith('wal_checkpoint')) counted.count++;
    return pragma(source, options);
  }) as typeof sqlite.pragma;
  return counted;
}
const until = async (what: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; Date.now() < end && !what(); ) await new Promise((wake) => setTimeout(wake, 20));
  return what();
};

describe('the write-ahead log is checkpointed off the main thread', () => {
  it('the connection itself no longer checkpoints: 6 MB written (past the 4 MiB point SQLite checkpoints at) stay in the log', async () => {
    const { sqlite, path, write } = openWal('no-worker.db');
    const checkpoints = checkpointOffTheMainThread(sqlite, path, { intervalMs: 20, startAtLogBytes: Number.MAX_SAFE_INTEGER });
    assert.equal(sqlite.pragma('wal_autocheckpoint', { simple: true }), 0);
    write(6_000_000);
    await new Promise((wake) => setTimeout(wake, 200));
    assert.ok(fileBytes(path) < 100_000, `the database file has ${fileBytes(path)} bytes`);
    assert.ok(fileBytes(`${path}-wal`) > 6_000_000);
    await checkpoints.stop();
    sqlite.close();
  });

  it('once the log has grown, the worker copies it into the database file', async () => {
    const { sqlite, path, write } = openWal('worker.db');
    const checkpoints = checkpointOffTheMainThread(sqlite, path, { intervalMs: 20, startAtLogBytes: 256 * 1024 });
    write(2_000_000);
    assert.ok(await until(() => fileBytes(path) > 2_000_000, 20_000), `the database file has ${fileBytes(path)} bytes`);
    await checkpoints.stop();
    assert.deepEqual(sqlite.prepare('select count(*) as n from rows').get(), { n: 2_000 });
    sqlite.close();
  });

  it('under writes without a pause the log stays near its cap', async () => {
    const { sqlite, path, write } = openWal('capped.db');
    const cap = 1024 * 1024;
    const checkpoints = checkpointOffTheMainThread(sqlite, path, { intervalMs: 10, startAtLogBytes: 256 * 1024, capLogBytes: cap });
    let largest = 0;
    for (let written = 0; written < 12_000_000; written += 100_000) {
      write(100_000);
      largest = Math.max(largest, fileBytes(`${path}-wal`));
      // A turn for the timers, as the service's statements have between them.
      await new Promise((wake) => setTimeout(wake, 2));
    }
    // A commit of a 1,000-byte row writes pages of 4 KiB: without the cap the log held ~75 MB
    // at its largest here (the worker never caught up); with it, under 20 MB on a loaded
    // machine (the cap, and what was written while the worker held the checkpoint lock).
    assert.ok(largest < 40_000_000, `the log grew to ${largest} bytes`);
    await checkpoints.stop();
    sqlite.close();
  });

  it('once the log is reused, its file is cut back and the main connection checkpoints no more', async () => {
    const { sqlite, path, write } = openWal('reused.db');
    const cap = 1024 * 1024;
    const mainCheckpoints = countCheckpoints(sqlite);
    const checkpoints = checkpointOffTheMainThread(sqlite, path, { intervalMs: 10, startAtLogBytes: 256 * 1024, capLogBytes: cap });
    let largest = 0;
    for (let written = 0; written < 6_000_000; written += 100_000) {
      write(100_000);
      largest = Math.max(largest, fileBytes(`${path}-wal`));
      await new Promise((wake) => setTimeout(wake, 2));
    }
    assert.ok(largest > cap, `the log file reached ${largest} bytes, not past the cap`);
    // Written slowly, the worker keeps up and every commit may reuse the log from its start.
    await new Promise((wake) => setTimeout(wake, 300));
    const before = mainCheckpoints.count;
    for (let i = 0; i < 50; i++) {
      write(1_000);
      await new Promise((wake) => setTimeout(wake, 10));
    }
    // SQLite keeps a reused log's file at its largest size unless told a limit: the cap read that size.
    assert.ok(fileBytes(`${path}-wal`) < cap, `the log file still has ${fileBytes(`${path}-wal`)} bytes`);
    assert.equal(mainCheckpoints.count - before, 0, 'the main connection checkpointed while the log held little');
    await checkpoints.stop();
    sqlite.close();
  });

  it('past the cap the worker drains the log while the connection is held: the main connection checkpoints nothing', async () => {
    const { sqlite, path, write } = openWal('drained.db');
    const cap = 1024 * 1024;
    const mainCheckpoints = countCheckpoints(sqlite);
    const queue = statementQueue();
    const checkpoints = checkpointOffTheMainThread(sqlite, path, { intervalMs: 10, startAtLogBytes: 256 * 1024, capLogBytes: cap, holdWrites: queue.holdWrites });
    // What is timed below is the drain, not the worker's start: under tsx on a loaded machine
    // a worker takes a second or more to load, and the log would grow without bound until it
    // answers. Its first checkpoint (pages reach the database file) says it is running.
    write(300_000);
    assert.ok(await until(() => fileBytes(path) > 100_000, 20_000), 'the worker never checkpointed');
    let largest = 0;
    let cutBack = false;
    for (let written = 300_000; written < 12_000_000; written += 100_000) {
      await queue.free();
      write(100_000);
      const bytes = fileBytes(`${path}-wal`);
      largest = Math.max(largest, bytes);
      if (largest > cap && bytes < cap) cutBack = true;
      await new Promise((wake) => setTimeout(wake, 2));
    }
    assert.ok(queue.holds() > 0, 'the log was never drained');
    assert.equal(mainCheckpoints.count, 0, 'the main connection checkpointed');
    assert.ok(cutBack, `the log's file was never cut back below the cap (largest ${largest} bytes)`);
    // As with the main connection's checkpoint: the cap and what was written before the worker answered.
    assert.ok(largest < 40_000_000, `the log grew to ${largest} bytes`);
    await checkpoints.stop();
    assert.deepEqual(sqlite.prepare('select count(*) as n from rows').get(), { n: 12_000 });
    sqlite.close();
  });

  it('with the connection held for it, the worker cuts a large log file back once it has caught up; the main connection never does', async () => {
    const { sqlite, path, write } = openWal('trimmed.db');
    const queue = statementQueue();
    const trimAt = 2 * 1024 * 1024;
    const checkpoints = checkpointOffTheMainThread(sqlite, path, {
      intervalMs: 10,
      startAtLogBytes: 256 * 1024,
      capLogBytes: Number.MAX_SAFE_INTEGER,
      trimLogBytes: trimAt,
      holdWrites: queue.holdWrites,
    });
    // The commit that reuses the log would cut its file with an ftruncate on the main thread.
    assert.equal(sqlite.pragma('journal_size_limit', { simple: true }), -1);
    let largest = 0;
    for (let written = 0; written < 6_000_000; written += 100_000) {
      await queue.free();
      write(100_000);
      largest = Math.max(largest, fileBytes(`${path}-wal`));
      await new Promise((wake) => setTimeout(wake, 2));
    }
    assert.ok(largest > trimAt, `the log file reached ${largest} bytes, not past the trim point`);
    // Nothing else makes the file smaller now: once the worker has caught up (in a pause
    // between the writes, or in this one) it cuts the file in a drain, and below the trim
    // point it is left as it is.
    assert.ok(
      await until(() => fileBytes(`${path}-wal`) < Math.min(largest, trimAt), 10_000),
      `the log file still has ${fileBytes(`${path}-wal`)} bytes`,
    );
    assert.ok(queue.holds() > 0);
    write(1_000);
    await checkpoints.stop();
    assert.deepEqual(sqlite.prepare('select count(*) as n from rows').get(), { n: 6_001 });
    sqlite.close();
  });
});

describe("the service's database drains its log through Kysely's queue", () => {
  it('two writers through Kysely: their statements wait while the worker drains, none is lost, and the connection never cuts the file itself', async () => {
    const path = join(dir, 'service.db');
    const cap = 1024 * 1024;
    const database = openDatabase(
      { kind: 'sqlite', path, url: `sqlite:${path}` },
      { walCheckpoints: { intervalMs: 10, startAtLogBytes: 256 * 1024, capLogBytes: cap } },
    );
    const { db } = database;
    // With the connection held for drains, its commits must not cut the log's file on the main thread.
    const { rows: limit } = await sql<{ journal_size_limit: number }>`pragma journal_size_limit`.execute(db);
    assert.equal(limit[0]?.journal_size_limit, -1);
    await sql`create table rows (id integer primary key, body text)`.execute(db);
    const body = 'x'.repeat(1000);
    let largest = 0;
    let cutBack = false;
    let statements = 0;
    // Two requests' saves, 100 rows a statement, a turn between statements as the service's
    // loops take, until the log has been drained while they wrote (the worker takes a while to start).
    const writer = async () => {
      for (const end = Date.now() + 20_000; Date.now() < end && (!cutBack || statements < 120); ) {
        const values = sql.join(Array.from({ length: 100 }, () => sql`(${body})`));
        await sql`insert into rows (body) values ${values}`.execute(db);
        statements++;
        const bytes = fileBytes(`${path}-wal`);
        largest = Math.max(largest, bytes);
        if (largest > cap && bytes < cap) cutBack = true;
        await new Promise((wake) => setTimeout(wake, 2));
      }
    };
    await Promise.all([writer(), writer()]);
    const { rows: count } = await sql<{ n: number }>`select count(*) as n from rows`.execute(db);
    assert.equal(count[0]?.n, statements * 100);
    assert.ok(cutBack, `the log's file was never cut back below the cap (largest ${largest} bytes)`);
    assert.ok(largest < 40_000_000, `the log grew to ${largest} bytes`);
    await database.close();
  });
});

/**
 * The service's queue of statements, as Kysely's SQLite driver keeps one: a writer that
 * awaits `free()` before each statement waits while a drain holds the connection, as the
 * service's queries would.
 */
function statementQueue() {
  let held: Promise<void> | undefined;
  let holds = 0;
  return {
    holds: () => holds,
    free: async () => {
      while (held) await held;
    },
    holdWrites: async (during: () => Promise<void>) => {
      holds++;
      let release!: () => void;
      held = new Promise((done) => (release = done));
      try {
        await during();
      } finally {
        held = undefined;
        release();
      }
    },
  };
}
