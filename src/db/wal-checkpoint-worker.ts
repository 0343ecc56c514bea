/**
 * The worker thread that checkpoints an SQLite database's write-ahead log (db/wal-checkpoints.ts).
 * Its own connection to the file; every `intervalMs` a PASSIVE checkpoint, which copies
 * what it can of the log into the database and syncs it without waiting on, or blocking,
 * the service's connection. A checkpoint another process holds answers busy and is
 * simply tried again next time.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';

export interface CheckpointWorkerData {
  readonly path: string;
  readonly intervalMs: number;
}

function checkpointEvery({ path, intervalMs }: CheckpointWorkerData): void {
  const sqlite = new SqliteDatabase(path);
  const checkpoint = () => {
    try {
      sqlite.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Busy or the file gone at shutdown: nothing to keep, the next tick tries again.
    }
  };
  const timer = setInterval(checkpoint, intervalMs);
  parentPort?.once('message', () => {
    clearInterval(timer);
    sqlite.close();
    parentPort?.close();
  });
}

checkpointEvery(workerData as CheckpointWorkerData);
