/**
 * Group commit (docs/decisions/0023): items that arrive while a transaction is being
 * committed wait and go into the next transaction together, so concurrent callers share
 * one commit (and one WAL flush) instead of paying for one each. Every caller's promise
 * settles only after the transaction holding its item committed: nothing is reported
 * done that a crash could still lose.
 *
 * If a batch's transaction fails it was rolled back as a whole, and each of its items is
 * retried in a transaction of its own: the item at fault fails, the others commit; none
 * is lost and none is written twice.
 */
import { PostgresAdapter, type Transaction } from 'kysely';
import type { Db } from './database.js';
import type { DatabaseSchema } from './schema.js';

/** Writes `items` inside `trx`, one result per item in the same order. */
export type BatchWriter<I, R> = (trx: Transaction<DatabaseSchema>, items: readonly I[]) => Promise<R[]>;

/** Items in one transaction at most: bounds its statements (SQLite binds ≤ 32,766 values). */
export const MAX_BATCH = 256;

/**
 * Batches being committed at once. SQLite has one connection and commits without waiting
 * for the disk (WAL, synchronous=NORMAL): one at a time, so batches grow. PostgreSQL
 * waits for its WAL flush on every commit; a few batches in flight keep its pool busy
 * while one waits, and PostgreSQL flushes concurrent commits together.
 */
export function batchesInFlight(db: Db): number {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 4 : 1;
}

interface Pending<I, R> {
  readonly item: I;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export class TransactionBatcher<I, R> {
  private pending: Pending<I, R>[] = [];
  private scheduled = false;
  private inFlight = 0;
  private transactions = 0;
  private readonly maxInFlight: number;
  /** Callers of close() waiting for the batches to finish. */
  private readonly idle: (() => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly write: BatchWriter<I, R>,
    options: { maxInFlight?: number } = {},
  ) {
    this.maxInFlight = options.maxInFlight ?? batchesInFlight(db);
  }

  /** Transactions committed or attempted so far (a batch and each retry of its items count one each). */
  get transactionCount(): number {
    return this.transactions;
  }

  /** Resolves with the item's result once it is committed; rejects if its own transaction fails. */
  add(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves once every item handed over is committed or failed (a process closing waits for its charges). */
  async close(): Promise<void> {
    while (this.pending.length > 0 || this.inFlight > 0 || this.scheduled) {
      await new Promise<void>((resolve) => {
        this.idle.push(resolve);
      });
    }
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight || this.pending.length === 0) return;
    this.scheduled = true;
    // One turn of the event loop lets the items of callers finishing together join.
    setImmediate(() => {
      this.scheduled = false;
      void this.startBatch();
    });
  }

  private async startBatch(): Promise<void> {
    if (this.inFlight >= this.maxInFlight || this.pending.length === 0) return;
    this.inFlight += 1;
    try {
      const batch = this.pending.splice(0, MAX_BATCH);
      this.schedule(); // more than one batch waiting, and a slot free
      await this.commit(batch);
    } finally {
      this.inFlight -= 1;
      this.schedule();
      if (this.inFlight === 0 && !this.scheduled) for (const resolve of this.idle.splice(0)) resolve();
    }
  }

  private async commit(batch: Pending<I, R>[]): Promise<void> {
    try {
      this.transactions += 1;
      const results = await this.db.transaction().execute((trx) => this.write(trx, batch.map((p) => p.item)));
      batch.forEach((pending, i) => pending.resolve(results[i]!));
      return;
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
    }
    for (const pending of batch) {
      try {
        this.transactions += 1;
        const [result] = await this.db.transaction().execute((trx) => this.write(trx, [pending.item]));
        pending.resolve(result!);
      } catch (error) {
        pending.reject(error);
      }
    }
  }
}
