/**
 * The hooks a protected route runs before its handler, made once by app.ts and handed to
 * each route: a file of its own so the routes need not import the app that imports them.
 */
import type { onRequestHookHandler } from 'fastify';

export interface ProtectedHooks {
  /** Authentication only: polling and usage do not spend the rate limit. */
  readonly authenticated: onRequestHookHandler[];
  /** Authentication, then the per-user rate limit. */
  readonly limited: onRequestHookHandler[];
}
