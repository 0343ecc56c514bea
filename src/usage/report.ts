/**
 * The monthly usage report of spec §2.5 with docs/contract.md §3.9's arithmetic. The
 * HTTP answer's shape (snake_case, ISO timestamps) is built by the route
 * (src/http/routes/usage.ts).
 */
import type { Tier } from '../config.js';
import { periodOf } from './period.js';

export interface UsageReport {
  /** The first millisecond of the calendar month (UTC). */
  readonly periodStart: Date;
  /** The last millisecond of the calendar month (UTC). */
  readonly periodEnd: Date;
  readonly tokensUsed: number;
  /** null: no grant (enterprise). */
  readonly tokensIncluded: number | null;
  readonly tokensRemaining: number | null;
  readonly overageTokens: number;
  readonly tier: Tier;
}

export function buildUsageReport(options: { tier: Tier; used: number; included: number | null; now: number }): UsageReport {
  const { tier, used, included, now } = options;
  const period = periodOf(now);
  return {
    periodStart: period.start,
    periodEnd: period.end,
    tokensUsed: used,
    tokensIncluded: included,
    tokensRemaining: included === null ? null : Math.max(0, included - used),
    overageTokens: included === null ? 0 : Math.max(0, used - included),
    tier,
  };
}
