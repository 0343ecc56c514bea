/**
 * The JSON body parser. Fastify's own refuses a `__proto__` key (and `constructor` holding
 * `prototype`), which is right, but reports it as invalid JSON; this one refuses the same
 * keys and says so. Nothing here trusts such a key: JSON.parse makes it an ordinary own
 * property, and it is refused before any code sees the body.
 */
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../errors.js';

/** Only a body that mentions one of these (or escapes characters) can hold such a key. */
const MAY_HOLD_FORBIDDEN_KEY = /__proto__|constructor|\\u/;

export function registerJsonBody(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.length === 0) return done(new ServiceError('invalid_request', 'the body is empty; send a JSON object'));
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
