/**
 * Per-user request limits on the translate, batch and job endpoints (docs/contract.md §3.10).
 * Runs after authentication and before the body is read. Every response of a limited
 * endpoint carries the three X-RateLimit headers; a 429 also carries Retry-After.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { ServiceError } from '../../errors.js';
import { rateLimitRejections } from '../../metrics/metrics.js';
import { requestsPerMinute } from '../../usage/grants.js';
import { userOf } from './auth.js';

export function rateLimitHook(deps: AppDeps) {
  return async function limitRequests(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const user = userOf(request);
    const limit = requestsPerMinute(user.tier);
    if (limit === null) return;
    const decision = await deps.limiter.consume(user.id, limit, deps.clock());
    if (!decision) return;
    void reply.headers({
      'x-ratelimit-limit': decision.limit,
      'x-ratelimit-remaining': decision.remaining,
      'x-ratelimit-reset': decision.resetAtSeconds,
    });
    if (!decision.allowed) {
      void reply.header('retry-after', decision.retryAfterSeconds);
      rateLimitRejections.inc({ tier: user.tier });
      throw new ServiceError(
        'rate_limit_reached',
        `the ${user.tier} tier allows ${limit} requests a minute; retry in ${decision.retryAfterSeconds} s`,
      );
    }
  };
}
