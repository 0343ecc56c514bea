/**
 * Cursors of the lists that page newest first (GET /v1/jobs, a webhook's deliveries): the
 * last row's (created_at, id), opaque to the caller. Keyset paging, so a page costs the
 * same however deep it is and rows added meanwhile never shift a page.
 */
import { ServiceError } from '../errors.js';

export interface PagePosition {
  readonly createdAt: number;
  readonly id: string;
}

export function encodeCursor(position: PagePosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id]), 'utf8').toString('base64url');
}

/** The position a cursor names; 400 invalid_request for anything this API did not hand out. */
export function decodeCursor(cursor: string): PagePosition {
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
