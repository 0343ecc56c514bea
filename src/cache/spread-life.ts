/**
 * A cached row's life drawn between half of `longestMs` and all of it (docs/decisions/0048).
 * Rows read together — the first requests after a start, or a refill after every entry
 * went stale — would otherwise all expire in the same moment and be read again together,
 * a wave that holds every request up; drawn at random, their next reads spread over half
 * the life and stay spread.
 */
export function spreadLife(longestMs: number): number {
  return longestMs * (0.5 + Math.random() / 2);
}
