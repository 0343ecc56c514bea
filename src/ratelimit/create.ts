/** The one place configuration picks a rate-limit store. */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { RateLimiter } from './limiter.js';
import { MemoryRateLimiter } from './memory.js';
import { NoRateLimiter } from './none.js';

export async function createRateLimiter(config: Config, _logger: Logger): Promise<RateLimiter> {
  switch (config.rateLimitStore) {
    case 'memory':
      return new MemoryRateLimiter();
    case 'none':
      return new NoRateLimiter();
    case 'redis':
      throw new Error('the redis rate-limit store is not available in this build');
  }
}
