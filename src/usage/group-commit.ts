/**
 * Group commit of synchronous requests' charges (docs/decisions/0023). Every request used
 * to open a write transaction of its own for its usage; now the charges that arrive while
 * one commit is being written wait and go into the next, ONE transaction for all of them.
 * Each caller's promise settles only after the transaction holding its charge has
 * committed, so an answer is never sent for usage a crash could still lose.
 *
 * A batch's charges are summed per user and month and written in one upsert (rows in user
 * order, so two processes' batches lock rows in the same order) and its reservations dropped in one
 * statement. If the batch fails, it is rolled back as a whole and every charge of it is
 * retried in a transaction of its own: the charge that is at fault fails (its request
 * answers an error) and the others commit; none is lost and none is counted twice.
 */
import { PostgresAdapter, sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { DatabaseSchema } from '../db/schema.js';
import type { Usage } from './charge-usage.js';
import { periodOf } from './period.js';

export interface Charge {
  readonly userId: string;
  readonly usage: Usage;
  readonly reservationId?: string;
  readonly now: number;
}

interface PendingCharge extends Charge {
  resolve(): void;
  reject(error: unknown): void;
}

/** Charges in one transaction at most; bounds its statements (SQLite binds ≤ 32,766 values). */
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

export class GroupCommit {
  private pending: PendingCharge[] = [];
  private scheduled = false;
  private inFlight = 0;
  private transactions = 0;
  private readonly maxInFlight: number;

  constructor(private readonly db: Db) {
    this.maxInFlight = batchesInFlight(db);
  }

  /** Transactions committed or attempted so far (a batch and each retry of its charges count one each). */
  get transactionCount(): number {
    return this.transactions;
  }

  /** Resolves once `charge` is committed; rejects if its own transaction fails. */
  charge(charge: Charge): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ ...charge, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight || this.pending.length === 0) return;
    this.scheduled = true;
    // One turn of the event loop lets the charges of requests finishing together join.
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
    }
  }

  private async commit(batch: PendingCharge[]): Promise<void> {
    try {
      this.transactions += 1;
      await this.db.transaction().execute((trx) => writeCharges(trx, batch));
      for (const charge of batch) charge.resolve();
      return;
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
    }
    for (const charge of batch) {
      try {
        this.transactions += 1;
        await this.db.transaction().execute((trx) => writeCharges(trx, [charge]));
        charge.resolve();
      } catch (error) {
        charge.reject(error);
      }
    }
  }
}

async function writeCharges(trx: Transaction<DatabaseSchema>, charges: readonly Charge[]): Promise<void> {
  const months = new Map<string, { userId: string; now: number; inputTokens: number; outputTokens: number }>();
  for (const { userId, usage, now } of charges) {
    const key = `${userId}\u0000${periodOf(now).key}`;
    const month = months.get(key) ?? { userId, now, inputTokens: 0, outputTokens: 0 };
    month.inputTokens += usage.inputTokens;
    month.outputTokens += usage.outputTokens;
    months.set(key, month);
  }
  // One statement for the whole batch, its rows in user order so that two processes'
  // batches lock the same rows in the same order (no deadlock on PostgreSQL).
  const rows = [...months.values()]
    .sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : a.now - b.now))
    .map((month) => ({
      user_id: month.userId,
      period: periodOf(month.now).key,
      input_tokens: month.inputTokens,
      output_tokens: month.outputTokens,
      tokens_used: month.inputTokens + month.outputTokens,
    }));
  await trx
    .insertInto('usage_monthly')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['user_id', 'period']).doUpdateSet({
        input_tokens: sql`usage_monthly.input_tokens + excluded.input_tokens`,
        output_tokens: sql`usage_monthly.output_tokens + excluded.output_tokens`,
        tokens_used: sql`usage_monthly.tokens_used + excluded.tokens_used`,
      }),
    )
    .execute();
  const reservations = charges.flatMap((charge) => (charge.reservationId ? [charge.reservationId] : []));
  if (reservations.length > 0) await trx.deleteFrom('token_reservations').where('id', 'in', reservations).execute();
}

const perDatabase = new WeakMap<Db, GroupCommit>();

/** The group commit of `db` (one per database handle, made on first use). */
export function groupCommitOf(db: Db): GroupCommit {
  let group = perDatabase.get(db);
  if (!group) {
    group = new GroupCommit(db);
    perDatabase.set(db, group);
  }
  return group;
}
