/**
 * The key check both compat APIs share: the same keys, users and revocation as `/v1`,
 * through the same cached lookup (accounts/key-cache.ts), so a revoked key is refused
 * here as soon as there. Where the key travels differs per API (its auth.ts); what a
 * wrong one answers is the API's own (its errors.ts).
 */
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { ServiceError } from '../../errors.js';

export async function authenticateKey(deps: AppDeps, request: FastifyRequest, key: string | undefined, howToSend: string): Promise<void> {
  if (!key) throw new ServiceError('invalid_api_key', `no API key was sent; ${howToSend}`);
  const user = await deps.keys.authenticate(key);
  if (!user) throw new ServiceError('invalid_api_key', 'the API key is unknown or has been revoked');
  request.user = user;
}
