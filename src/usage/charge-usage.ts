/** The one statement that adds delivered usage to a user's month (the ledger and group commit share it). */
import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { DatabaseSchema } from '../db/schema.js';
import { periodOf } from './period.js';

export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** Adds delivered usage to the user's month. Call inside the transaction that delivers. */
export async function chargeUsage(db: Db | Transaction<DatabaseSchema>, userId: string, usage: Usage, now: number): Promise<void> {
  const period = periodOf(now).key;
  const total = usage.inputTokens + usage.outputTokens;
  await db
    .insertInto('usage_monthly')
    .values({
      user_id: userId,
      period,
      input_tokens: usage.inputTokens,
      output_tokens: usage.outputTokens,
      tokens_used: total,
    })
    .onConflict((oc) =>
      oc.columns(['user_id', 'period']).doUpdateSet({
        input_tokens: sql`usage_monthly.input_tokens + ${usage.inputTokens}`,
        output_tokens: sql`usage_monthly.output_tokens + ${usage.outputTokens}`,
        tokens_used: sql`usage_monthly.tokens_used + ${total}`,
      }),
    )
    .execute();
}

