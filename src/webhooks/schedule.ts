/**
 * When a failed delivery is tried again: exponential backoff with jitter, configurable
 * (docs/webhooks.md). With the defaults (5 s doubling, at most 4 h apart, 18 attempts)
 * the retries span about a day, as Standard Webhooks suggests.
 */
export interface RetrySchedule {
  readonly retryBaseMs: number;
  readonly retryMaxIntervalMs: number;
  readonly maxAttempts: number;
}

/** The wait after failed attempt `attempt` (1-based); undefined when it was the last. `random` is in [0, 1). */
export function retryDelayMs(schedule: RetrySchedule, attempt: number, random: () => number = Math.random): number | undefined {
  if (attempt >= schedule.maxAttempts) return undefined;
  const nominal = Math.min(schedule.retryMaxIntervalMs, schedule.retryBaseMs * 2 ** (attempt - 1));
  // ±25 %: endpoints that failed together (an outage) are not all retried in the same second.
  return Math.round(nominal * (0.75 + random() * 0.5));
}
