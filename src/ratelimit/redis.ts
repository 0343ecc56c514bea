/**
 * A sliding-window log in Redis, shared by every API instance: one sorted set per user
 * (score = accept time in ms) with a TTL of one window. One Lua script prunes, decides
 * and records atomically, with the same arithmetic as `decide()` in limiter.ts, so a
 * user sees identical headers whichever store is configured.
 *
 * Redis unreachable (or slow): `consume` answers null — the request is let through
 * without headers (docs/contract.md §3.10) — and the failure is counted (`failures`) and logged,
 * at error level once per outage and then at most once a minute, never per request.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { rateLimitStoreFallbacks } from '../metrics/metrics.js';
import { RATE_WINDOW_MS, type RateLimitDecision, type RateLimiter } from './limiter.js';

/** The part of a Redis client this store uses (ioredis fits), so tests can pass a fake. */
export interface RedisLike {
  evalsha(sha: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
  quit(): Promise<unknown>;
  /** Drops the connection and stops reconnecting (ioredis); used when quit cannot reach the server. */
  disconnect?(): void;
}

/**
 * KEYS[1] the user's window; ARGV: now (ms), limit, window (ms), a unique member.
 * Returns {allowed 0|1, remaining, resetAtSeconds, retryAfterSeconds}. Mirrors decide():
 * the window holds accepts with time > now - window; the new request counts only if
 * accepted; the next slot frees one window after the oldest accept still held.
 */
export const SLIDING_WINDOW_SCRIPT = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
local allowed = 0
if count < limit then
  allowed = 1
  redis.call('ZADD', key, now, ARGV[4])
  count = count + 1
  redis.call('PEXPIRE', key, window)
end
local oldest = now
local first = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
if first[2] then oldest = tonumber(first[2]) end
local frees = oldest + window
local remaining = limit - count
if remaining < 0 then remaining = 0 end
local retry = math.ceil((frees - now) / 1000)
if retry < 1 then retry = 1 end
return {allowed, remaining, math.ceil(frees / 1000), retry}
`;

const SCRIPT_SHA = createHash('sha1').update(SLIDING_WINDOW_SCRIPT).digest('hex');
/** While Redis stays down, remind the logs this often (with the running count). */
const LOG_EVERY_MS = 60_000;

export interface RedisRateLimiterOptions {
  readonly redis: RedisLike;
  readonly logger: Logger;
  /** Prefix of every key this store writes; lets deployments and tests share a Redis. */
  readonly keyPrefix?: string;
  /** Wall clock for log throttling only (decisions use the `now` they are given). */
  readonly clock?: () => number;
}

export class RedisRateLimiter implements RateLimiter {
  private readonly redis: RedisLike;
  private readonly logger: Logger;
  private readonly keyPrefix: string;
  private readonly clock: () => number;
  private failureCount = 0;
  private down = false;
  private failuresSinceLog = 0;
  private lastLogAt = 0;
  /**
   * Each accepted request's member in the sorted set must differ from every other in the
   * user's window, across all processes: this process's random id and a counter, not a
   * randomBytes call per request (its cost: docs/benchmarks.md).
   */
  private readonly memberPrefix = `${randomBytes(8).toString('hex')}-`;
  private memberCount = 0;

  constructor(options: RedisRateLimiterOptions) {
    this.redis = options.redis;
    this.logger = options.logger;
    this.keyPrefix = options.keyPrefix ?? 'translate:ratelimit:';
    this.clock = options.clock ?? Date.now;
  }

  /** Requests let through unchecked because Redis failed, since this process started. */
  get failures(): number {
    return this.failureCount;
  }

  async consume(key: string, limit: number, now: number): Promise<RateLimitDecision | null> {
    const args = [this.keyPrefix + key, now, limit, RATE_WINDOW_MS, this.memberPrefix + (this.memberCount++).toString(36)];
    let reply: unknown;
    try {
      reply = await this.run(args);
    } catch (error) {
      this.recordFailure(error);
      return null;
    }
    this.recordSuccess();
    const [allowed, remaining, resetAtSeconds, retryAfterSeconds] = reply as [number, number, number, number];
    return {
      allowed: Number(allowed) === 1,
      limit,
      remaining: Number(remaining),
      resetAtSeconds: Number(resetAtSeconds),
      retryAfterSeconds: Number(retryAfterSeconds),
    };
  }

  /** EVALSHA, falling back to EVAL when Redis does not have the script (restart, flush). */
  private async run(args: (string | number)[]): Promise<unknown> {
    try {
      return await this.redis.evalsha(SCRIPT_SHA, 1, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.includes('NOSCRIPT')) throw error;
      return this.redis.eval(SLIDING_WINDOW_SCRIPT, 1, ...args);
    }
  }

  private recordFailure(error: unknown): void {
    this.failureCount += 1;
    rateLimitStoreFallbacks.inc();
    this.failuresSinceLog += 1;
    const now = this.clock();
    if (!this.down) {
      this.down = true;
      this.lastLogAt = now;
      this.failuresSinceLog = 0;
      this.logger.error(
        { err: error, rateLimitFailures: this.failureCount },
        'rate-limit store (Redis) is unreachable; requests are let through without limits until it returns',
      );
    } else if (now - this.lastLogAt >= LOG_EVERY_MS) {
      this.logger.warn(
        { err: error, rateLimitFailures: this.failureCount, sinceLastLog: this.failuresSinceLog },
        'rate-limit store (Redis) is still unreachable; requests are let through without limits',
      );
      this.lastLogAt = now;
      this.failuresSinceLog = 0;
    }
  }

  private recordSuccess(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.info(
      { rateLimitFailures: this.failureCount, sinceLastLog: this.failuresSinceLog },
      'rate-limit store (Redis) is reachable again; limits apply',
    );
    this.failuresSinceLog = 0;
  }

  async close(): Promise<void> {
    // With Redis unreachable QUIT fails at once, but the client would go on reconnecting
    // and keep the process alive: stop it outright.
    await this.redis.quit().catch(() => this.redis.disconnect?.());
  }
}
