/**
 * The token pre-check applied to a request without reserving anything, for
 * POST /v1/translate/estimate: would the request pass, and how many tokens remain. The
 * free tier's rule is reserveTokens' (ledger.ts): the spec's estimate against the grant
 * minus this month's usage and the reservations held by work still running. Paid tiers
 * have no pre-check (they run into overage): they always pass, and `tokensRemaining` is
 * what the usage report says; unlimited tiers have none (null).
 */
import type { User } from '../accounts/users.js';
import type { ReservationDeps } from './access.js';
import { hasTokenPreCheck, monthlyGrant } from './grants.js';
import { heldTokens, tokensUsedInMonth } from './ledger.js';

export interface PreCheckView {
  readonly passes: boolean;
  readonly tokensRemaining: number | null;
}

export async function viewPreCheck(deps: ReservationDeps, user: User, estimate: number): Promise<PreCheckView> {
  const included = monthlyGrant(deps.config, user.tier);
  if (included === null) return { passes: true, tokensRemaining: null };
  const { db } = deps.database;
  const now = deps.clock();
  const used = await tokensUsedInMonth(db, user.id, now);
  if (!hasTokenPreCheck(user.tier)) return { passes: true, tokensRemaining: Math.max(0, included - used) };
  const remaining = included - used - (await heldTokens(db, user.id, now));
  return { passes: estimate <= remaining, tokensRemaining: Math.max(0, remaining) };
}
