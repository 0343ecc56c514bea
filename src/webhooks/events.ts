/** The events an endpoint can subscribe to (docs/webhooks.md); a name not listed here is 400. */
export const WEBHOOK_EVENTS = ['job.completed', 'job.failed', 'job.canceled'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export function isWebhookEvent(value: unknown): value is WebhookEvent {
  return typeof value === 'string' && (WEBHOOK_EVENTS as readonly string[]).includes(value);
}
