/**
 * Group commit of synchronous requests' charges (docs/decisions/0023). Every request used
 * to open a write transaction of its own for its usage; now the charges that arrive while
 * a commit is being written go into the next one together (db/transaction-batcher.ts),
 * and each request answers only after the transaction holding its charge committed.
 *
 * A batch's charges are summed per user and month and written in one upsert (rows in user
 * order, so two processes' batches lock rows in the same order), and its reservations are
 * dropped in one statement. A failed batch is retried charge by charge: the charge at
 * fault fails (its request answers an error), the others commit.
 */
import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { DatabaseSchema } from '../db/schema.js';
import { TransactionBatcher } from '../db/transaction-batcher.js';
import { periodOf } from './period.js';

export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface Charge {
  readonly userId: string;
  readonly usage: Usage;
  readonly reservationId?: string;
  readonly now: number;
}

/** The charges of one process, committed together (db/transaction-batcher.ts); made by the composition root. */
export class GroupCommit {
  private readonly batcher: TransactionBatcher<Charge, void>;

  constructor(db: Db) {
    this.batcher = new TransactionBatcher(db, async (trx, charges) => {
      await writeCharges(trx, charges);
      return charges.map(() => undefined);
    });
  }

  /** Transactions committed or attempted so far (a batch and each retry of its charges count one each). */
  get transactionCount(): number {
    return this.batcher.transactionCount;
  }

  /** Resolves once `charge` is committed; rejects if its own transaction fails. */
  charge(charge: Charge): Promise<void> {
    return this.batcher.add(charge);
  }

  /** Resolves once every charge handed over is committed or failed. */
  close(): Promise<void> {
    return this.batcher.close();
  }
}

/**
 * Adds `charges` to their users' months in one statement and drops their reservations,
 * inside `trx`. Rows go in user order: every transaction that charges several users
 * locks their month rows in the same order.
 */
export async function writeCharges(trx: Transaction<DatabaseSchema>, charges: readonly Charge[]): Promise<void> {
  if (charges.length === 0) return;
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
