/**
 * The JSON body parser. Fastify's own refuses a `__proto__` key (and `constructor` holding
 * `prototype`), which is right, but reports it as invalid JSON; this one refuses the same
 * keys and says so. Nothing here trusts such a key: JSON.parse makes it an ordinary own
 * property, and it is refused before any code sees the body.
 *
 * A body nested deeper than MAX_BODY_DEPTH is refused before it is parsed: parsing 2 MB
 * of `[[[[…` holds the event loop for a long time, and no request body needs more than 3 levels
 * (documents travel as strings, whatever their own nesting).
 */
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../errors.js';
import { jsonNestsDeeperThan } from '../formats/core/limits.js';

export const MAX_BODY_DEPTH = 64;

/** Only a body that mentions one of these (or escapes characters) can hold such a key. */
const MAY_HOLD_FORBIDDEN_KEY = /__proto__|constructor|\\u/;

/**
 * `allowEmpty`: an empty body is no body (undefined) instead of 400, for the routes whose
 * DELETE takes none — clients often send `Content-Type: application/json` on every request.
 * Registered inside such a route plugin, it applies to that plugin's routes only.
 */
export function registerJsonBody(app: FastifyInstance, options: { allowEmpty?: boolean } = {}): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.length === 0) {
      if (options.allowEmpty) return done(null, undefined);
      return done(new ServiceError('invalid_request', 'the body is empty; send a JSON object'));
    }
    if (jsonNestsDeeperThan(text, MAX_BODY_DEPTH)) {
      return done(new ServiceError('invalid_request', `the body's JSON nests deeper than ${MAX_BODY_DEPTH} levels; a request body needs 3`));
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return done(new ServiceError('invalid_request', 'the body is not valid JSON'));
    }
    const key = MAY_HOLD_FORBIDDEN_KEY.test(text) ? forbiddenKey(value) : undefined;
    if (key) {
      return done(
        new ServiceError(
          'invalid_request',
          `the body has a ${key} key; such keys are refused because they can change how objects behave; remove it`,
        ),
      );
    }
    done(null, value);
  });
}

/** The first `__proto__` key, or `constructor` holding `prototype`, anywhere in `value` (no recursion). */
function forbiddenKey(value: unknown): string | undefined {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Object.hasOwn(node, '__proto__')) return '"__proto__"';
    const ctor = Object.hasOwn(node, 'constructor') ? (node as { constructor: unknown }).constructor : undefined;
    if (ctor !== null && typeof ctor === 'object' && Object.hasOwn(ctor, 'prototype')) return '"constructor" key holding a "prototype"';
    for (const inner of Object.values(node)) if (inner !== null && typeof inner === 'object') stack.push(inner);
  }
  return undefined;
}
