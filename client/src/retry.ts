/**
 * When a failed call is tried again, and after how long. Retried: 429 rate_limit_reached
 * (after its Retry-After), 500 translation_error and server_error, 503 service_unavailable,
 * 409 idempotency_key_in_use, and network errors — the ones docs/errors.md calls safe to retry. Not retried: every 4xx
 * but that 429, and 429 token_limit_reached (the month's grant does not come back in
 * seconds). Waits grow exponentially with "full jitter" (a random wait up to the cap), so
 * many clients failing together do not come back together.
 */
import { TranslateApiError, TranslateNetworkError } from './errors.js';
import type { ErrorCode } from './types.js';

export interface RetryOptions {
  /** Tries in all, the first included. Default 4. */
  readonly maxAttempts?: number;
  /** The cap of the first retry's random wait; doubles each retry. Default 500 ms. */
  readonly baseDelayMs?: number;
  /** No wait is longer than this, Retry-After included. Default 30 s. */
  readonly maxDelayMs?: number;
}

// idempotency_key_in_use: this call's own earlier attempt is still running on the service;
// asking again later gets its answer.
const RETRYABLE_CODES: readonly ErrorCode[] = ['rate_limit_reached', 'translation_error', 'server_error', 'service_unavailable', 'idempotency_key_in_use'];

export const DEFAULT_RETRY: Required<RetryOptions> = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 30_000 };

export function isRetryable(error: unknown): boolean {
  if (error instanceof TranslateNetworkError) return true;
  if (!(error instanceof TranslateApiError)) return false;
  return RETRYABLE_CODES.includes(error.code);
}

/**
 * Milliseconds to wait before retry number `retry` (1 = the first retry), or undefined when
 * the service asks for a longer wait than `maxDelayMs` (retrying sooner would only fail again).
 */
export function retryDelayMs(error: unknown, retry: number, options: Required<RetryOptions>, random: () => number = Math.random): number | undefined {
  const asked = error instanceof TranslateApiError ? error.retryAfterSeconds : undefined;
  if (asked !== undefined) {
    // The service said when a slot frees: not before then, plus a little jitter to spread callers.
    const delay = asked * 1000 + random() * Math.min(1000, options.baseDelayMs);
    return delay > options.maxDelayMs ? undefined : delay;
  }
  return random() * Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (retry - 1));
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
