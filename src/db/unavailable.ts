/**
 * Tells "the database cannot be reached right now" apart from every other failure, so
 * the HTTP layer answers 503 service_unavailable (retry later) instead of a 500 — the
 * former is an outage the caller can wait out, the latter a bug.
 */

/** Socket-level failures of reaching the server. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL SQLSTATEs meaning the server is unreachable, restarting or full: class 08
 * (connection exception), 57P01–57P03 (shutting down / starting up), 53300 (too many
 * connections). SQLite's SQLITE_BUSY means another process held the write lock past
 * busy_timeout: also something to retry, not a bug.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', 'SQLITE_BUSY']);

/** Messages node-postgres uses for a connection that died or never came. */
const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
];

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 5) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) {
    return true;
  }
  if (PG_CONNECTION_MESSAGES.some((message) => error.message.includes(message))) return true;
  // net.connect to a host with several addresses fails with an AggregateError of each.
  if (error instanceof AggregateError && error.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(error.cause, depth + 1);
}
