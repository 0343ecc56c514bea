/**
 * Usage is charged only for delivered work (docs/contract.md §3.8), into the month it is
 * delivered in. The free-tier pre-check reserves its estimate while the work runs, so
 * concurrent requests cannot together overshoot the grant; the reservation is replaced
 * by the real usage when the work is delivered, and dropped when it fails.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { DatabaseSchema } from '../db/schema.js';
import { ServiceError } from '../errors.js';
import type { GroupCommit, Usage } from './group-commit.js';
import { periodOf } from './period.js';

export type { Usage } from './group-commit.js';

/** A synchronous request's reservation outlives a crashed process by at most this. */
export const REQUEST_RESERVATION_TTL_MS = 15 * 60 * 1000;

type DbOrTrx = Db | Transaction<DatabaseSchema>;

/**
 * Reserves `estimate` tokens of the user's remaining grant, or throws 429
 * token_limit_reached. Returns the reservation id.
 */
export async function reserveTokens(
  db: Db,
  options: { userId: string; estimate: number; included: number; now: number; jobId?: string },
): Promise<string> {
  const { userId, estimate, included, now } = options;
  const period = periodOf(now).key;
  return db.transaction().execute(async (trx) => {
    // Upserting the month's row first serializes concurrent pre-checks of one user:
    // PostgreSQL holds its row lock until commit, SQLite holds the database write lock.
    const month = await trx
      .insertInto('usage_monthly')
      .values({ user_id: userId, period, input_tokens: 0, output_tokens: 0, tokens_used: 0 })
      .onConflict((oc) => oc.columns(['user_id', 'period']).doUpdateSet({ tokens_used: sql`usage_monthly.tokens_used` }))
      .returning('tokens_used')
      .executeTakeFirstOrThrow();
    const remaining = included - Number(month.tokens_used) - (await heldTokens(trx, userId, now));
    if (estimate > remaining) {
      throw new ServiceError(
        'token_limit_reached',
        `this request needs an estimated ${estimate} tokens but only ${Math.max(0, remaining)} remain of this month's free grant`,
      );
    }
    const id = randomUUID();
    await trx
      .insertInto('token_reservations')
      .values({
        id,
        user_id: userId,
        tokens: estimate,
        job_id: options.jobId ?? null,
        expires_at: options.jobId ? null : now + REQUEST_RESERVATION_TTL_MS,
        created_at: now,
      })
      .execute();
    return id;
  });
}

export async function releaseReservation(db: DbOrTrx, reservationId: string): Promise<void> {
  await db.deleteFrom('token_reservations').where('id', '=', reservationId).execute();
}

export async function releaseJobReservation(db: DbOrTrx, jobId: string): Promise<void> {
  await db.deleteFrom('token_reservations').where('job_id', '=', jobId).execute();
}

/**
 * Charges a synchronous request's usage and drops its reservation, atomically; resolves
 * once that is committed. Concurrent charges share one transaction (group-commit.ts).
 * A request that cost nothing and holds no reservation (answered from translation memory)
 * has nothing to make durable and writes nothing (decision 0037).
 */
export async function chargeRequest(
  charges: GroupCommit,
  options: { userId: string; usage: Usage; reservationId?: string; now: number },
): Promise<void> {
  if (options.reservationId === undefined && options.usage.inputTokens === 0 && options.usage.outputTokens === 0) return;
  await charges.charge(options);
}

/** Tokens held by live reservations of the user (the pre-check counts them as spent). */
export async function heldTokens(db: DbOrTrx, userId: string, now: number): Promise<number> {
  const held = await db
    .selectFrom('token_reservations')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('tokens'), eb.val(0)).as('tokens'))
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirstOrThrow();
  return Number(held.tokens);
}

export async function tokensUsedInMonth(db: Db, userId: string, now: number): Promise<number> {
  const row = await db
    .selectFrom('usage_monthly')
    .select('tokens_used')
    .where('user_id', '=', userId)
    .where('period', '=', periodOf(now).key)
    .executeTakeFirst();
  return row ? Number(row.tokens_used) : 0;
}

/** Drops reservations of synchronous requests whose process died before finishing. */
export async function deleteExpiredReservations(db: Db, now: number): Promise<number> {
  const result = await db.deleteFrom('token_reservations').where('expires_at', '<', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
