/**
 * The checks between a valid request and its work (docs/contract.md §3.6): tier access to the
 * model (403), then the free tier's token pre-check, which reserves the estimate.
 */
import type { User } from '../accounts/users.js';
import type { AppDeps } from '../deps.js';
import type { PublicModel } from '../engines/registry.js';
import { ServiceError } from '../errors.js';
import { canUseAdvanced, hasTokenPreCheck, monthlyGrant } from '../usage/grants.js';
import { reserveTokens } from '../usage/ledger.js';

export function assertModelAccess(user: User, model: PublicModel): void {
  if (model === 'advanced' && !canUseAdvanced(user.tier)) {
    throw new ServiceError('advanced_not_available', 'the advanced model needs a paid tier; this key is on the free tier');
  }
}

/** Reserves the estimate for a pre-checked tier; undefined for tiers without the check. */
export async function reserveForPreCheck(
  deps: AppDeps,
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
