/** What each tier may do: its monthly grant, the pre-check, `advanced`, the rate limit. */
import type { Config, Tier } from '../config.js';

/** Requests a minute (spec §8); null = unlimited. */
const REQUESTS_PER_MINUTE: Readonly<Record<Tier, number | null>> = {
  free: 5,
  starter: 30,
  growth: 60,
  scale: 120,
  enterprise: null,
};

export function requestsPerMinute(tier: Tier): number | null {
  return REQUESTS_PER_MINUTE[tier];
}

/** Tokens included each month; null = unlimited (enterprise). */
export function monthlyGrant(config: Pick<Config, 'monthlyTokens'>, tier: Tier): number | null {
  return config.monthlyTokens[tier];
}

/** Only the free tier is blocked by the token pre-check; paid tiers run into overage. */
export function hasTokenPreCheck(tier: Tier): boolean {
  return tier === 'free';
}

export function canUseAdvanced(tier: Tier): boolean {
  return tier !== 'free';
}
