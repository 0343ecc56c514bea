/**
 * The hooks a protected route runs before its handler, made once by app.ts and handed to
 * each route: a file of its own so the routes need not import the app that imports them.
 */
import type { onRequestHookHandler } from 'fastify';
import type { IdempotencyHooks } from './plugins/idempotency.js';

export interface ProtectedHooks {
  /** Authentication only: polling and usage do not spend the rate limit. */
  readonly authenticated: onRequestHookHandler[];
  /** Authentication, then the per-user rate limit. */
  readonly limited: onRequestHookHandler[];
  /** The Idempotency-Key hooks of the POST routes that charge or enqueue: spread into the route's options. */
  readonly idempotent: IdempotencyHooks;
}
