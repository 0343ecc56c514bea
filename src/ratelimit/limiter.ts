/**
 * Per-user sliding-window rate limits (docs/contract.md §3.10): at most `limit` accepted
 * requests in any rolling window; a refused request is not counted.
 */
export const RATE_WINDOW_MS = 60_000;

export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  /** Accepted requests still possible in the window after this one. */
  readonly remaining: number;
  /** Unix time in whole seconds when the next slot frees. */
  readonly resetAtSeconds: number;
  /** Whole seconds to wait before retrying; meaningful when refused. */
  readonly retryAfterSeconds: number;
}

export interface RateLimiter {
  /**
   * Counts one request for `key` if the window allows it. Null means no limit applies:
   * the store is `none`, or it failed and the request is let through (fail open).
   */
  consume(key: string, limit: number, now: number): Promise<RateLimitDecision | null>;
  close(): Promise<void>;
}

/**
 * The decision for a window that holds `timestamps` (accepted requests, oldest first,
 * all within the window). Shared by every store so they answer the same headers.
 */
export function decide(timestamps: readonly number[], limit: number, now: number): RateLimitDecision {
  const allowed = timestamps.length < limit;
  const inWindow = allowed ? [...timestamps, now] : timestamps;
  const oldest = inWindow[0] ?? now;
  const frees = oldest + RATE_WINDOW_MS;
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - inWindow.length),
    resetAtSeconds: Math.ceil(frees / 1000),
    retryAfterSeconds: Math.max(1, Math.ceil((frees - now) / 1000)),
  };
}
