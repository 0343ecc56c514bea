/**
 * Signatures per the Standard Webhooks specification (docs/webhooks.md), so receivers can
 * check them with its published libraries: the secret is `whsec_` + base64 of 32 random
 * bytes; the signed content is `${webhook-id}.${webhook-timestamp}.${body}`; the
 * signature header is `v1,` + base64 of its HMAC-SHA256 under the decoded secret.
 */
import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

export interface SignedHeaders {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
}

/** The three headers of a delivery; `timestampSeconds` is the attempt's time (a retry signs anew). */
export function signDelivery(secret: string, messageId: string, timestampSeconds: number, body: string): SignedHeaders {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const timestamp = String(timestampSeconds);
  const signature = createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': messageId, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}
