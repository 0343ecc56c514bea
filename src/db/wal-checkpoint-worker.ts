/**
 * The worker thread that checkpoints an SQLite database's write-ahead log (db/wal-checkpoints.ts).
 * Its own connection to the file; every `intervalMs` a PASSIVE checkpoint, which copies
 * what it can of the log into the database and syncs it without waiting on, or blocking,
 * the service's connection. A checkpoint another process holds answers busy and is
 * simply tried again next time.
 *
 * Asked to drain (the log past its cap), it first copies what it can while the service
 * writes on (a PASSIVE checkpoint), then, the service's connection held, runs a TRUNCATE
 * checkpoint: with no writer in between it copies the rest, syncs, and cuts the file to
 * nothing, off the main thread (decision 0116).
 */
import { parentPort, workerData } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';

export interface CheckpointWorkerData {
  readonly path: string;
  readonly intervalMs: number;
}

/**
 * What the service's thread sends: stop; copy what can be copied now, writes going on
 * (`catch-up`); or empty the log, the service's connection held (`drain`). Each answered
 * with `{ answered: id }`.
 */
export type CheckpointWorkerRequest = 'stop' | { readonly op: 'catch-up' | 'drain'; readonly id: number };
export type CheckpointWorkerReply =
  | { readonly answered: number }
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
  const drain = (mode: 'PASSIVE' | 'TRUNCATE') => {
    try {
      sqlite.pragma(`wal_checkpoint(${mode})`);
    } catch {
      // Busy (another process) or the file gone: the next tick tries again.
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
    drain(request.op === 'drain' ? 'TRUNCATE' : 'PASSIVE');
    parentPort?.postMessage({ answered: request.id } satisfies CheckpointWorkerReply);
  });
}

checkpointEvery(workerData as CheckpointWorkerData);
