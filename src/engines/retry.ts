/**
 * Transport retries (docs/engine-notes.md b5, L0): full-jitter exponential backoff for failures
 * that another attempt can fix (429, 5xx, 529, timeouts, broken connections), honouring
 * the provider's Retry-After up to the cap. Client errors (400/401/403/404/422) fail at
 * once, and nothing is retried once the caller's signal has aborted. The clock and the
 * random source are injected so tests run in milliseconds and deterministically.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';
import { ProviderCallError } from './provider-http.js';

export interface RetryPolicy {
  /** Attempts in total, the first included. */
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** In [0, 1). */
  readonly random: () => number;
  /** Resolves after `ms`; rejects when `signal` aborts. */
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  random: Math.random,
  sleep: (ms, signal) => sleepFor(ms, undefined, signal ? { signal } : undefined),
};

/** Delay before attempt `failedAttempt + 1`. */
export function backoffDelayMs(failedAttempt: number, policy: RetryPolicy, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return Math.min(policy.maxDelayMs, retryAfterMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failedAttempt - 1));
  return Math.floor(policy.random() * ceiling);
}

export async function withRetry<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy,
  signal?: AbortSignal,
): Promise<T> {
  for (let attemptNumber = 1; ; attemptNumber++) {
    signal?.throwIfAborted();
    try {
      return await attempt(attemptNumber);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const retryable = error instanceof ProviderCallError && error.retryable;
      if (!retryable || attemptNumber >= policy.maxAttempts) throw error;
      await policy.sleep(backoffDelayMs(attemptNumber, policy, error.retryAfterMs), signal);
    }
  }
}
