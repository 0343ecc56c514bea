/**
 * Cursors of the lists that page newest first (GET /v1/jobs, a webhook's deliveries): the
 * last row's (created_at, id), opaque to the caller. Keyset paging, so a page costs the
 * same however deep it is and rows added meanwhile never shift a page.
 */
import { sql } from 'kysely';
import { ServiceError } from '../errors.js';

export interface PagePosition {
  readonly createdAt: number;
  readonly id: string;
}

/** A page's limit and cursor as they arrived (query strings); 400 invalid_request for anything else. */
export function pageRequest(
  query: { readonly limit?: unknown; readonly cursor?: unknown },
  sizes: { readonly default: number; readonly max: number },
): { readonly limit: number; readonly after: PagePosition | undefined } {
  let limit = sizes.default;
  if (query.limit !== undefined) {
    limit = typeof query.limit === 'string' && /^\d{1,3}$/.test(query.limit) ? Number(query.limit) : NaN;
    if (!(limit >= 1 && limit <= sizes.max)) throw new ServiceError('invalid_request', `limit must be a whole number from 1 to ${sizes.max}`);
  }
  if (query.cursor !== undefined && typeof query.cursor !== 'string') throw new ServiceError('invalid_request', 'cursor must be given once');
  return { limit, after: query.cursor === undefined ? undefined : decodeCursor(query.cursor) };
}

/** The rows after `after` in newest-first (created_at, id) order: the keyset condition. */
export function olderThan(after: PagePosition) {
  return sql<boolean>`(created_at < ${after.createdAt} or (created_at = ${after.createdAt} and id < ${after.id}))`;
}

/** The page of `rows`, read with a limit of `limit` + 1, and the cursor of the next page (null on the last). */
export function pageOf<R extends { readonly created_at: number | string; readonly id: string }>(rows: readonly R[], limit: number): { page: R[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: Number(last.created_at), id: last.id }) : null };
}

function encodeCursor(position: PagePosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id]), 'utf8').toString('base64url');
}

/** The position a cursor names; 400 invalid_request for anything this API did not hand out. */
function decodeCursor(cursor: string): PagePosition {
  const refuse = () => new ServiceError('invalid_request', 'cursor is not one this API gave out; pass next_cursor from the previous page');
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw refuse();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw refuse();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw refuse();
  const [createdAt, id] = parsed as unknown[];
  if (!Number.isSafeInteger(createdAt) || typeof id !== 'string' || id.length > 100) throw refuse();
  return { createdAt: createdAt as number, id };
}
