/** An in-process sliding-window log: right for one process (the embedded default). */
import { decide, RATE_WINDOW_MS, type RateLimitDecision, type RateLimiter } from './limiter.js';

const SWEEP_EVERY_MS = 5 * RATE_WINDOW_MS;

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, number[]>();
  private lastSweep = 0;

  async consume(key: string, limit: number, now: number): Promise<RateLimitDecision> {
    this.sweepIdle(now);
    const timestamps = (this.windows.get(key) ?? []).filter((t) => t > now - RATE_WINDOW_MS);
    const decision = decide(timestamps, limit, now);
    if (decision.allowed) timestamps.push(now);
    this.windows.set(key, timestamps);
    return decision;
  }

  /** Forget users whose windows are empty, so memory follows active users only. */
  private sweepIdle(now: number): void {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    for (const [key, timestamps] of this.windows) {
      if ((timestamps.at(-1) ?? 0) <= now - RATE_WINDOW_MS) this.windows.delete(key);
    }
  }

  async close(): Promise<void> {
    this.windows.clear();
  }
}
