/**
 * SQLite's write-ahead log checkpointed off the main thread. By default the connection that
 * commits past 1,000 log pages copies the log into the database and syncs the file, inside
 * that commit: on the service's connection a statement of a large document's memory save
 * then held the event loop far past its bound on a busy disk (decision 0107; figures in
 * docs/benchmarks.md, "Event loop: the last shapes"). The service's connection turns that
 * off and a worker thread with a connection of its own checkpoints on a timer instead. The worker starts only once
 * the log has grown to the size SQLite would have checkpointed at, so a process that
 * writes little (a CLI command, most tests) never starts a thread for it. In-memory
 * databases have no log to checkpoint.
 *
 * Past the cap (the worker cannot keep up with writes without a pause), the log is drained
 * by the worker too, while the service's own connection is held idle (`holdWrites`, an
 * await, not a block): the main thread no longer copies and syncs hundreds of MiB itself
 * (decision 0116).
 */
import { statSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { scriptBeside, startWorkerScript } from '../event-loop/worker-script.js';
import type SqliteDatabase from 'better-sqlite3';
import type { CheckpointWorkerData, CheckpointWorkerReply, CheckpointWorkerRequest } from './wal-checkpoint-worker.js';

/** Often enough that the log stays a few MiB under a large document's saves; a checkpoint with nothing to copy is a few syscalls. */
const CHECKPOINT_INTERVAL_MS = 1_000;
/** SQLite's own default point: 1,000 pages of 4 KiB. */
const START_AT_LOG_BYTES = 4 * 1024 * 1024;
/**
 * The log is reused from its start only after a checkpoint that copied all of it, and a
 * worker's checkpoint copies what was there when it began: under writes without a pause it
 * never quite catches up, and the log would grow for ever. Past this size the service's own
 * connection checkpoints once, between two of its statements, which always completes; the
 * worker has copied nearly everything by then, so it is a short copy and one sync, rare.
 * A lower cap was reached within a few large documents' memory saves (random keys scatter
 * their pages), and each such checkpoint held the loop (decision 0110): the cap is for a
 * worker that cannot keep up at all, not for a busy minute.
 * With `holdWrites` (the service's database) the worker drains the log instead while the
 * connection is held (decision 0116); the main connection checkpoints only without one, or
 * with no worker to ask.
 */
const CAP_LOG_BYTES = 256 * 1024 * 1024;

/**
 * A log file this large, once the worker has copied all of it, is cut to nothing by the
 * worker in a drain (with `holdWrites`): the service's connection no longer cuts it back
 * itself on reuse. Well above what an ordinary busy second writes, so a steady load that the
 * worker keeps up with is never held for it.
 */
const TRIM_LOG_BYTES = 64 * 1024 * 1024;

const WORKER_SCRIPT = scriptBeside(import.meta.url, 'wal-checkpoint-worker');
const startWorker = (workerData: CheckpointWorkerData) => startWorkerScript(WORKER_SCRIPT, { workerData });

/**
 * Runs `during` while no statement of the service's connection runs, and waits for it (for
 * Kysely's SQLite driver: `db.connection().execute(during)`, which queues the other queries).
 */
export type HoldWrites = (during: () => Promise<void>) => Promise<void>;

/** The sizes and the timer, the defaults above unless a test needs them small. */
export interface WalCheckpointOptions {
  readonly intervalMs?: number;
  readonly startAtLogBytes?: number;
  readonly capLogBytes?: number;
  readonly trimLogBytes?: number;
}

export interface WalCheckpoints {
  /** Stops the worker; the connection's own close checkpoints what is left. */
  stop(): Promise<void>;
}

const logBytes = (path: string): number => statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0;

/** Moves `sqlite`'s checkpoints (a file database in WAL mode) to a worker thread, started once the log has grown. */
export function checkpointOffTheMainThread(
  sqlite: SqliteDatabase.Database,
  path: string,
  options: WalCheckpointOptions & { readonly holdWrites?: HoldWrites } = {},
): WalCheckpoints {
  const intervalMs = options.intervalMs ?? CHECKPOINT_INTERVAL_MS;
  const startAt = options.startAtLogBytes ?? START_AT_LOG_BYTES;
  const cap = options.capLogBytes ?? CAP_LOG_BYTES;
  const trimAt = options.trimLogBytes ?? TRIM_LOG_BYTES;
  const holdWrites = options.holdWrites;
  sqlite.pragma('wal_autocheckpoint = 0');
  // SQLite reuses the log from its start after a complete checkpoint but keeps the file at
  // its largest size, and the cap below reads the file: once it had passed the cap, the
  // main thread checkpointed every second for good (decision 0108). Without `holdWrites`,
  // the commit that reuses the log cuts the file back to a limit. With it, that commit
  // must not: cutting a file of hundreds of MiB in one `ftruncate` held the main thread
  // (decision 0116); the worker cuts it instead, in a drain, once it has caught up.
  if (!holdWrites) sqlite.pragma(`journal_size_limit = ${startAt}`);
  let worker: { readonly thread: Worker; readonly exited: Promise<void> } | undefined;
  let exited = false;
  let draining = false;
  /** The worker's last checkpoint copied the whole log: a drain now only cuts the file. */
  let caughtUp = false;
  let stopping = false;
  let nextRequest = 1;
  /** Sends `request` to the worker; resolves when it answered, or went away. */
  const ask = async (thread: Worker, gone: Promise<void>, request: Exclude<CheckpointWorkerRequest, 'stop'>) => {
    const answered = new Promise<void>((done) => {
      const onReply = (reply: CheckpointWorkerReply) => {
        if (!('answered' in reply) || reply.answered !== request.id) return;
        thread.off('message', onReply);
        done();
      };
      thread.on('message', onReply);
    });
    // Held while it works, so a stopping process waits for the answer rather than losing it.
    thread.ref();
    thread.postMessage(request);
    await Promise.race([answered, gone]);
    if (!stopping) thread.unref();
  };
  /**
   * The worker first copies what it can while writes go on, then empties the log while the
   * connection is held: the hold covers only what was written meanwhile, the sync and the cut,
   * not the whole copy (decision 0116).
   */
  const drainInWorker = async (thread: Worker, gone: Promise<void>) => {
    await ask(thread, gone, { op: 'catch-up', id: nextRequest++ });
    await holdWrites!(() => ask(thread, gone, { op: 'drain', id: nextRequest++ }));
  };
  const watch = setInterval(() => {
    if (draining) return;
    const bytes = logBytes(path);
    if (bytes >= startAt && !worker) {
      const thread = startWorker({ path, intervalMs });
      // A checkpointer must not keep a finished process alive, nor crash it: at worst the log grows.
      thread.unref();
      thread.on('error', () => {});
      thread.on('message', (reply: CheckpointWorkerReply) => {
        if ('caughtUp' in reply) caughtUp = reply.caughtUp;
      });
      worker = {
        thread,
        exited: new Promise<void>((done) =>
          thread.once('exit', () => {
            exited = true;
            done();
          }),
        ),
      };
    }
    if (!sqlite.open) return;
    if (!holdWrites || !worker || exited) {
      if (bytes >= cap) sqlite.pragma('wal_checkpoint(PASSIVE)');
      return;
    }
    if (bytes < cap && !(bytes >= trimAt && caughtUp)) return;
    draining = true;
    caughtUp = false;
    drainInWorker(worker.thread, worker.exited)
      .catch(() => {})
      .finally(() => (draining = false));
  }, intervalMs);
  watch.unref();
  return {
    async stop() {
      clearInterval(watch);
      stopping = true;
      if (!worker) return;
      // Held while it closes its connection: an unref'd thread's exit alone would not keep the process waiting.
      worker.thread.ref();
      worker.thread.postMessage('stop' satisfies CheckpointWorkerRequest);
      await worker.exited;
    },
  };
}
