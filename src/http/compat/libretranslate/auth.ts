/**
 * Where LibreTranslate's clients put the key: `api_key` in the body (its own clients,
 * Weblate, wagtail-localize, Mastodon — which may send `null` when none is set). i18n-ally
 * has no key setting; its server URL may carry one as `http://key:<KEY>@HOST/libretranslate`,
 * which its HTTP client (axios) sends as `Authorization: Basic` with the key as password.
 * `Authorization: Bearer <key>` works too, as on /v1. The key is read after the body
 * (that is where it is), so this runs as a preHandler, followed by the rate limit.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { authenticateKey } from '../api-key.js';
import { fieldsOf } from '../form-body.js';

const BEARER = /^Bearer +([\x21-\x7E]+) *$/i;
const BASIC = /^Basic +([A-Za-z0-9+/=]+) *$/i;

export function libreTranslateAuthHook(deps: AppDeps) {
  return async function requireLibreKey(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    await authenticateKey(deps, request, keyOf(request), 'send it as "api_key" in the body');
  };
}

function keyOf(request: FastifyRequest): string | undefined {
  const fromBody = fieldsOf(request.body)?.api_key;
  const bodyKey = Array.isArray(fromBody) ? fromBody[0] : fromBody;
  if (typeof bodyKey === 'string' && bodyKey.length > 0) return bodyKey;
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const bearer = BEARER.exec(header);
  if (bearer) return bearer[1];
  const basic = BASIC.exec(header);
  if (!basic) return undefined;
  const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 && colon < decoded.length - 1 ? decoded.slice(colon + 1) : undefined;
}
