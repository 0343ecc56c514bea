/** GET /usage: this month's tokens against the user's tier, one indexed lookup. */
import type { User } from '../accounts/users.js';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { ServiceError } from '../errors.js';
import { monthlyGrant } from './grants.js';
import { tokensUsedInMonth } from './ledger.js';
import { buildUsageReport, type UsageReport } from './report.js';

/** What the usage report reads. */
export interface UsageServiceDeps {
  readonly config: Config;
  readonly database: Database;
  /** Milliseconds since the epoch. */
  readonly clock: () => number;
}

export async function usageReportFor(deps: UsageServiceDeps, user: User): Promise<UsageReport> {
  const now = deps.clock();
  let used: number;
  try {
    used = await tokensUsedInMonth(deps.database.db, user.id, now);
  } catch (error) {
    throw new ServiceError('server_error', 'usage could not be read right now; try again shortly', { cause: error });
  }
  return buildUsageReport({ tier: user.tier, used, included: monthlyGrant(deps.config, user.tier), now });
}
