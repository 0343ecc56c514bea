/**
 * What /v1/webhooks takes and answers, for the OpenAPI document and the client. The body
 * is described here but checked in code (src/webhooks/service.ts, docs/decisions/0001).
 */
import { Type } from '@sinclair/typebox';
import { WEBHOOK_EVENTS } from '../../webhooks/events.js';

const strict = { additionalProperties: false } as const;
const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601, UTC, milliseconds.' });
const WebhookId = Type.String({ format: 'uuid' });
const EventName = Type.Union(WEBHOOK_EVENTS.map((event) => Type.Literal(event)));
const Events = Type.Array(EventName, { minItems: 1, uniqueItems: true, description: 'The events to receive; another name is 400.' });

export const WebhookBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: 'https; never a loopback, private, link-local or metadata address (checked again at each delivery). Redirects are not followed.',
    }),
    events: Events,
  },
  strict,
);

export const WebhookParams = Type.Object({ id: Type.String({ description: 'The webhook_id POST /v1/webhooks answered.' }) });

const webhookFields = { webhook_id: WebhookId, url: Type.String(), events: Events, created_at: Timestamp };

export const Webhook = Type.Object(webhookFields, strict);

export const WebhookCreated = Type.Object(
  {
    ...webhookFields,
    secret: Type.String({
      pattern: '^whsec_',
      description: 'The Standard Webhooks signing secret: shown this once. Verify each delivery\'s webhook-signature with it.',
    }),
  },
  strict,
);

export const WebhookList = Type.Object({ webhooks: Type.Array(Webhook, { description: 'Newest first.' }) }, strict);

export const DeliveryListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  cursor: Type.Optional(Type.String({ description: 'next_cursor of the previous page.' })),
});

const Delivery = Type.Object(
  {
    delivery_id: Type.String({ description: 'Sent as webhook-id; the same on every attempt.' }),
    event: EventName,
    job_id: Type.String({ format: 'uuid' }),
    status: Type.Union([Type.Literal('pending'), Type.Literal('sending'), Type.Literal('succeeded'), Type.Literal('failed')]),
    attempts: Type.Integer({ minimum: 0 }),
    response_status: Type.Union([Type.Integer(), Type.Null()], { description: 'The HTTP status of the last attempt\'s answer; null when there was none.' }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'Why the last attempt failed; null after a success or before any attempt.' }),
    created_at: Timestamp,
    last_attempt_at: Type.Union([Timestamp, Type.Null()]),
    next_attempt_at: Type.Union([Timestamp, Type.Null()], { description: 'Pending: when the next attempt is due.' }),
  },
  strict,
);

export const DeliveryList = Type.Object(
  {
    deliveries: Type.Array(Delivery, { description: 'Newest first.' }),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
  },
  strict,
);
