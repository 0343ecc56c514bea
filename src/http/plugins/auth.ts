/**
 * Bearer-key authentication for protected routes (spec §5). A missing or malformed
 * header, an unknown key and a revoked key all answer 401 invalid_api_key (a revoked key
 * within a second of its revocation, in every process).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../../accounts/users.js';
import type { AppDeps } from '../../deps.js';
import { ServiceError } from '../../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    user: User | undefined;
  }
}

const BEARER = /^Bearer +([\x21-\x7E]+) *$/i;

export function authHook(deps: AppDeps) {
  return async function requireApiKey(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? BEARER.exec(header) : null;
    if (!match) {
      throw new ServiceError('invalid_api_key', 'send your API key as "Authorization: Bearer <key>"');
    }
    // Cached until keys change, or half a second without a change feed (accounts/key-cache.ts).
    const user = await deps.keys.authenticate(match[1]!);
    if (!user) throw new ServiceError('invalid_api_key', 'the API key is unknown or has been revoked');
    request.user = user;
  };
}

/** The authenticated user of a protected route. */
export function userOf(request: FastifyRequest): User {
  if (!request.user) throw new Error('route is missing the auth hook');
  return request.user;
}
