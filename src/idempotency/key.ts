/**
 * What an Idempotency-Key may be (CONTRACT §7): 1–255 printable ASCII characters, sent
 * once. Anything else is refused rather than trimmed or hashed into shape, so a client's
 * bug shows on its first request instead of as a replay of someone else's answer.
 */
import { createHash } from 'node:crypto';
import { ServiceError } from '../errors.js';

export const MAX_KEY_LENGTH = 255;

const PRINTABLE_ASCII = /^[\x20-\x7E]+$/;

/** The key of a request's header value, or undefined when the header is absent. */
export function parseIdempotencyKey(header: string | readonly string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string') {
    throw new ServiceError('invalid_request', 'the Idempotency-Key header was sent more than once; send it once');
  }
  if (header.length === 0) {
    throw new ServiceError('invalid_request', 'the Idempotency-Key header is empty; send 1 to 255 printable ASCII characters, such as a UUID');
  }
  if (header.length > MAX_KEY_LENGTH) {
    throw new ServiceError('invalid_request', `the Idempotency-Key header is ${header.length} characters long; at most ${MAX_KEY_LENGTH} are allowed`);
  }
  if (!PRINTABLE_ASCII.test(header)) {
    throw new ServiceError('invalid_request', 'the Idempotency-Key header holds a character that is not printable ASCII; use letters, digits and punctuation (a UUID is a good key)');
  }
  return header;
}

/**
 * What "the same request" means: the same route and the same JSON body. The body is
 * hashed as parsed and serialized again, so a retry that re-encodes the same object with
 * other whitespace is still the same request; a changed field is not.
 */
export function requestFingerprint(route: string, body: unknown): string {
  return createHash('sha256').update(route).update('\n').update(JSON.stringify(body) ?? '').digest('hex');
}
