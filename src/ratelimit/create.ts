/** The one place configuration picks a rate-limit store. */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { RateLimiter } from './limiter.js';
import { MemoryRateLimiter } from './memory.js';
import { NoRateLimiter } from './none.js';
import { RedisRateLimiter } from './redis.js';

/** A rate-limit check must never hold a request up for long: past this, fail open. */
const REDIS_COMMAND_TIMEOUT_MS = 500;
const REDIS_CONNECT_TIMEOUT_MS = 2_000;

export async function createRateLimiter(config: Config, logger: Logger): Promise<RateLimiter> {
  switch (config.rateLimitStore) {
    case 'memory':
      return new MemoryRateLimiter();
    case 'none':
      return new NoRateLimiter();
    case 'redis':
      return new RedisRateLimiter({ redis: await connectRedis(config.redisUrl!, logger), logger });
  }
}

/**
 * An ioredis client that fails fast instead of queueing: with Redis down a command is
 * rejected at once (no offline queue, no per-request retries) or after the command
 * timeout, while the client keeps reconnecting in the background. A Redis that is down
 * at start-up does not stop the service; requests are let through until it answers.
 */
async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  // Loaded here, not at the top: a process without Redis never loads ioredis (docs/decisions/0047).
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    lazyConnect: true,
    // No automatic pipelining (docs/decisions/0046): ioredis sends one automatic pipeline
    // at a time, so under load each check queued behind another's round trip, and the
    // waiting requests' objects filled the old generation, and full collections stalled
    // the process (docs/benchmarks.md, "Figures from code comments"). One write per check instead.
    enableAutoPipelining: false,
  });
  // Connection errors are the limiter's to count and log (throttled); without a listener
  // ioredis would print every reconnect attempt.
  redis.on('error', () => {});
  try {
    await redis.connect();
  } catch (error) {
    logger.error({ err: error }, 'rate-limit store (Redis) is unreachable at start; requests are let through until it answers');
  }
  return redis;
}
