/**
 * The worker thread that checkpoints an SQLite database's write-ahead log (db/wal-checkpoints.ts).
 * Its own connection to the file; every `intervalMs` a PASSIVE checkpoint, which copies
 * what it can of the log into the database and syncs it without waiting on, or blocking,
 * the service's connection. A checkpoint another process holds answers busy and is
 * simply tried again next time.
 *
 * Asked to drain (the log past its cap, while the service holds its own connection's
 * writes), it runs a TRUNCATE checkpoint: with no writer in between it copies all of the
 * log, syncs, and cuts the file to nothing, off the main thread (decision 0116).
 */
import { parentPort, workerData } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';

export interface CheckpointWorkerData {
  readonly path: string;
  readonly intervalMs: number;
}

/** What the service's thread sends: stop, or drain the log now (answered with `{ drained: id }`). */
export type CheckpointWorkerRequest = 'stop' | { readonly drain: number };
export type CheckpointWorkerReply =
  | {
      readonly drained: number;
      /** The log was emptied: no other process held it (SQLite's `busy` flag was 0). */
      readonly complete: boolean;
    }
  /** After each timed checkpoint: whether it copied the whole log (a drain then has nothing left to copy). */
  | { readonly caughtUp: boolean };

function checkpointEvery({ path, intervalMs }: CheckpointWorkerData): void {
  const sqlite = new SqliteDatabase(path);
  // A drain must not wait long on another process's reader or writer while the service's
  // own queries wait for it: busy, it copies what it can and the next tick tries again.
  sqlite.pragma('busy_timeout = 100');
  const checkpoint = () => {
    try {
      const [result] = sqlite.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
      const caughtUp = result !== undefined && result.busy === 0 && result.log > 0 && result.checkpointed === result.log;
      parentPort?.postMessage({ caughtUp } satisfies CheckpointWorkerReply);
    } catch {
      // Busy or the file gone at shutdown: nothing to keep, the next tick tries again.
    }
  };
  const drain = (): boolean => {
    try {
      const [result] = sqlite.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      return result?.busy === 0;
    } catch {
      return false;
    }
  };
  const timer = setInterval(checkpoint, intervalMs);
  parentPort?.on('message', (request: CheckpointWorkerRequest) => {
    if (request === 'stop') {
      clearInterval(timer);
      sqlite.close();
      parentPort?.close();
      return;
    }
    parentPort?.postMessage({ drained: request.drain, complete: drain() } satisfies CheckpointWorkerReply);
  });
}

checkpointEvery(workerData as CheckpointWorkerData);
