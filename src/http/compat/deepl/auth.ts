/**
 * DeepL's clients send `Authorization: DeepL-Auth-Key <key>`; `Bearer <key>` is accepted
 * as well, as on /v1. (DeepL's retired `auth_key` body parameter is not.)
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { authenticateKey } from '../api-key.js';

const HEADER = /^(?:DeepL-Auth-Key|Bearer) +([\x21-\x7E]+) *$/i;

export function deeplAuthHook(deps: AppDeps) {
  return async function requireDeeplKey(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const header = request.headers.authorization;
    const key = typeof header === 'string' ? HEADER.exec(header)?.[1] : undefined;
    await authenticateKey(deps, request, key, 'send it as "Authorization: DeepL-Auth-Key <key>"');
  };
}
