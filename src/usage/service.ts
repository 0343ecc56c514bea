/** GET /usage: this month's tokens against the user's tier, one indexed lookup. */
import type { User } from '../accounts/users.js';
import { ServiceError } from '../errors.js';
import type { ReservationDeps } from './access.js';
import { monthlyGrant } from './grants.js';
import { tokensUsedInMonth } from './ledger.js';
import { buildUsageReport, type UsageReport } from './report.js';

/** Reads what the pre-check reads (access.ts): the tier grants, the ledger and the clock. */
export async function usageReportFor(deps: ReservationDeps, user: User): Promise<UsageReport> {
  const now = deps.clock();
  let used: number;
  try {
    used = await tokensUsedInMonth(deps.database.db, user.id, now);
  } catch (error) {
    throw new ServiceError('server_error', 'usage could not be read right now; try again shortly', { cause: error });
  }
  return buildUsageReport({ tier: user.tier, used, included: monthlyGrant(deps.config, user.tier), now });
}
