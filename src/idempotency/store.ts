/**
 * Stored first answers by (user, Idempotency-Key), in the database so that every API
 * process answers a retry the same way (CONTRACT §7, docs/decisions/0067).
 *
 * One row per key. `begin` inserts it with a fresh owner id, or reads the row that is
 * there: an answer to replay, another request's fingerprint (422), or a request still
 * running under a live lease (409). The owner renews its lease while it runs, so a
 * process that dies mid-request frees the key within LEASE_MS instead of a day; an
 * expired row (past TTL_MS) is deleted and the key starts afresh. Expired rows are
 * swept on a jittered timer, as finished jobs are.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.js';
import { ServiceError } from '../errors.js';

const SECOND = 1_000;
const HOUR = 3_600 * SECOND;

/** How long an answer is replayed (CONTRACT §7). */
export const TTL_MS = 24 * HOUR;
/** How long a running request holds its key without renewing; renewed every third of it. */
export const LEASE_MS = 30 * SECOND;
/** How often expired rows are swept, on average (jittered ±50 %). */
export const SWEEP_EVERY_MS = 60 * SECOND;

/** An answer as it was sent: kept whole and sent again byte for byte. */
export interface StoredAnswer {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly body: string;
}

/** The request that holds a key: it must `complete` or `release` it exactly once. */
export interface HeldKey {
  complete(answer: StoredAnswer): Promise<void>;
  /** Frees the key without an answer (5xx, 429, a client that went away): a retry runs again. */
  release(): Promise<void>;
}

export type Begun = { readonly kind: 'replay'; readonly answer: StoredAnswer } | { readonly kind: 'owner'; readonly key: HeldKey };

export interface IdempotencyStoreOptions {
  readonly clock: () => number;
  /** Told about sweeps that failed (the database was away); the next sweep tries again. */
  readonly onSweepError?: (error: unknown) => void;
}

/** Enough tries for a row that expires or is released between our insert and our read. */
const MAX_BEGIN_ROUNDS = 4;

export class IdempotencyStore {
  readonly #db: Db;
  readonly #clock: () => number;
  readonly #onSweepError: (error: unknown) => void;
  readonly #renewals = new Set<NodeJS.Timeout>();
  #sweepTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(db: Db, options: IdempotencyStoreOptions) {
    this.#db = db;
    this.#clock = options.clock;
    this.#onSweepError = options.onSweepError ?? (() => {});
  }

  /** Starts the periodic sweep of expired keys (the API processes run it; it is idempotent). */
  startSweeping(): void {
    if (this.#closed || this.#sweepTimer) return;
    const schedule = (): void => {
      this.#sweepTimer = setTimeout(() => {
        void this.deleteExpired()
          .catch(this.#onSweepError)
          .finally(() => {
            if (!this.#closed) schedule();
          });
      }, SWEEP_EVERY_MS * (0.5 + Math.random()));
      this.#sweepTimer.unref();
    };
    schedule();
  }

  async begin(userId: string, key: string, fingerprint: string): Promise<Begun> {
    for (let round = 0; round < MAX_BEGIN_ROUNDS; round++) {
      const now = this.#clock();
      const owner = randomUUID();
      const inserted = await this.#db
        .insertInto('idempotency_keys')
        .values({
          user_id: userId,
          idempotency_key: key,
          fingerprint,
          owner,
          locked_until: now + LEASE_MS,
          // No answer yet: status_code, content_type and response_body start NULL.
          created_at: now,
          expires_at: now + TTL_MS,
        })
        .onConflict((conflict) => conflict.columns(['user_id', 'idempotency_key']).doNothing())
        .returning('owner')
        .executeTakeFirst();
      if (inserted) return { kind: 'owner', key: this.#hold(userId, key, owner) };

      const row = await this.#db
        .selectFrom('idempotency_keys')
        .select(['fingerprint', 'status_code', 'content_type', 'response_body', 'locked_until', 'expires_at'])
        .where('user_id', '=', userId)
        .where('idempotency_key', '=', key)
        .executeTakeFirst();
      if (!row) continue;
      if (Number(row.expires_at) <= now) {
        await this.#db
          .deleteFrom('idempotency_keys')
          .where('user_id', '=', userId)
          .where('idempotency_key', '=', key)
          .where('expires_at', '<=', now)
          .execute();
        continue;
      }
      if (row.fingerprint !== fingerprint) {
        throw new ServiceError(
          'idempotency_key_reused',
          'this Idempotency-Key was already used with a different request (another route or body) in the last 24 hours; use a new key for a new request',
        );
      }
      if (row.status_code !== null) {
        return {
          kind: 'replay',
          answer: { status: row.status_code, contentType: row.content_type ?? undefined, body: row.response_body ?? '' },
        };
      }
      if (Number(row.locked_until) > now) {
        throw new ServiceError(
          'idempotency_key_in_use',
          'a request with this Idempotency-Key is still running; retry once it has finished to get its answer',
        );
      }
      // Its owner stopped renewing (the process died): the request runs again, under a new owner.
      const taken = await this.#db
        .updateTable('idempotency_keys')
        .set({ owner, locked_until: now + LEASE_MS })
        .where('user_id', '=', userId)
        .where('idempotency_key', '=', key)
        .where('status_code', 'is', null)
        .where('locked_until', '<=', now)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 1) return { kind: 'owner', key: this.#hold(userId, key, owner) };
    }
    throw new ServiceError('idempotency_key_in_use', 'a request with this Idempotency-Key is changing hands; retry in a moment');
  }

  /** Deletes keys past their 24 hours; returns how many. */
  async deleteExpired(): Promise<number> {
    const result = await this.#db.deleteFrom('idempotency_keys').where('expires_at', '<=', this.#clock()).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#sweepTimer);
    for (const timer of this.#renewals) clearInterval(timer);
    this.#renewals.clear();
  }

  #hold(userId: string, key: string, owner: string): HeldKey {
    // The key's row while this request still holds it unanswered.
    const ours = { user_id: userId, idempotency_key: key, owner, status_code: null };
    const renewal = setInterval(() => {
      void this.#db
        .updateTable('idempotency_keys')
        .set({ locked_until: this.#clock() + LEASE_MS })
        .where((eb) => eb.and(ours))
        .execute()
        .catch(() => {
          // The database is away: the lease lapses and a retry may run the request again,
          // which is what a client without a key would get.
        });
    }, LEASE_MS / 3);
    renewal.unref();
    this.#renewals.add(renewal);
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      clearInterval(renewal);
      this.#renewals.delete(renewal);
      return true;
    };
    return {
      complete: async (answer) => {
        if (!settle()) return;
        await this.#db
          .updateTable('idempotency_keys')
          .set({ status_code: answer.status, content_type: answer.contentType ?? null, response_body: answer.body })
          .where((eb) => eb.and(ours))
          .execute();
      },
      release: async () => {
        if (!settle()) return;
        await this.#db.deleteFrom('idempotency_keys').where((eb) => eb.and(ours)).execute();
      },
    };
  }
}
