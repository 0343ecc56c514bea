/** The monthly usage report of spec §2.5 with docs/contract.md §3.9's arithmetic. */
import type { Tier } from '../config.js';
import { periodOf } from './period.js';

export interface UsageReport {
  period_start: string;
  period_end: string;
  tokens_used: number;
  tokens_included: number | null;
  tokens_remaining: number | null;
  overage_tokens: number;
  tier: Tier;
}

export function buildUsageReport(options: { tier: Tier; used: number; included: number | null; now: number }): UsageReport {
  const { tier, used, included, now } = options;
  const period = periodOf(now);
  return {
    period_start: period.start.toISOString(),
    period_end: period.end.toISOString(),
    tokens_used: used,
    tokens_included: included,
    tokens_remaining: included === null ? null : Math.max(0, included - used),
    overage_tokens: included === null ? 0 : Math.max(0, used - included),
    tier,
  };
}
