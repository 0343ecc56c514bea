/** RATE_LIMIT_STORE=none: limits are skipped, as the spec allows, and no headers are sent. */
import type { RateLimitDecision, RateLimiter } from './limiter.js';

export class NoRateLimiter implements RateLimiter {
  async consume(): Promise<RateLimitDecision | null> {
    return null;
  }

  async close(): Promise<void> {}
}
