/**
 * The checks between a valid request and its work (docs/contract.md §3.6): tier access to the
 * model (403), then the free tier's token pre-check, which reserves the estimate.
 */
import type { User } from '../accounts/users.js';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { PublicModel } from '../engines/registry.js';
import { ServiceError } from '../errors.js';
import { canUseAdvanced, hasTokenPreCheck, monthlyGrant } from './grants.js';
import { reserveTokens } from './ledger.js';

/** What the pre-check reads: the tier grants, the ledger, and the clock. */
export interface ReservationDeps {
  readonly config: Config;
  readonly database: Database;
  /** Milliseconds since the epoch. */
  readonly clock: () => number;
}

export function assertModelAccess(user: User, model: PublicModel): void {
  if (model === 'advanced' && !canUseAdvanced(user.tier)) {
    throw new ServiceError('advanced_not_available', 'the advanced model needs a paid tier; this key is on the free tier');
  }
}

/** Reserves the estimate for a pre-checked tier; undefined for tiers without the check. */
export async function reserveForPreCheck(
  deps: ReservationDeps,
  user: User,
  estimate: number,
  jobId?: string,
): Promise<string | undefined> {
  const included = monthlyGrant(deps.config, user.tier);
  if (!hasTokenPreCheck(user.tier) || included === null) return undefined;
  return reserveTokens(deps.database.db, {
    userId: user.id,
    estimate,
    included,
    now: deps.clock(),
    ...(jobId ? { jobId } : {}),
  });
}
