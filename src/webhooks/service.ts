/**
 * A user's webhook endpoints: register (checked against the SSRF guard, within the
 * per-user cap), list, read, delete, and the recent deliveries of one. Every statement
 * names the owner: another user's endpoint is indistinguishable from none.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { WebhookConfig } from '../config.js';
import type { Db } from '../db/database.js';
import { olderThan, pageOf, pageRequest } from '../db/page-cursor.js';
import { invalidRequest, ServiceError } from '../errors.js';
import { WEBHOOK_EVENTS, isWebhookEvent, type WebhookEvent } from './events.js';
import { newSigningSecret } from './signing.js';
import { checkWebhookUrl, resolvePublicAddress, UrlRefused, type Resolver } from './url-guard.js';

export interface WebhookDeps {
  readonly database: { readonly db: Db; readonly kind: 'sqlite' | 'postgres' };
  readonly config: { readonly webhooks: WebhookConfig };
  readonly clock: () => number;
  /** Name resolution for the registration check; default the system's. */
  readonly resolve?: Resolver;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const DELIVERY_PAGE_DEFAULT = 20;
export const DELIVERY_PAGE_MAX = 100;

/** POST /v1/webhooks: the endpoint as answered (schemas/webhooks.ts) and its signing secret, the only time the secret is shown. */
export async function createWebhook(deps: WebhookDeps, userId: string, body: unknown) {
  const { url, events } = parseWebhookBody(body);
  const { allowPrivate, maxPerUser } = deps.config.webhooks;
  let checked: URL;
  try {
    checked = checkWebhookUrl(url, allowPrivate);
    // Checked again at every delivery; refusing now tells the user at once.
    await resolvePublicAddress(checked.hostname.replace(/^\[|\]$/g, ''), allowPrivate, deps.resolve);
  } catch (error) {
    if (error instanceof UrlRefused) throw new ServiceError('invalid_request', error.message);
    throw error;
  }
  const { db, kind } = deps.database;
  const now = deps.clock();
  const webhook = { webhook_id: randomUUID(), url: checked.href, events, created_at: new Date(now).toISOString(), secret: newSigningSecret() };
  await db.transaction().execute(async (trx) => {
    // Two registrations at once must not both pass the cap: on PostgreSQL the user's row
    // is locked for the count (SQLite runs one writer at a time already).
    if (kind === 'postgres') await sql`select id from users where id = ${userId} for update`.execute(trx);
    const { count } = await trx
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= maxPerUser) {
      throw new ServiceError('webhook_limit_reached', `a user may have at most ${maxPerUser} webhooks; delete one first`);
    }
    await trx
      .insertInto('webhooks')
      .values({ id: webhook.webhook_id, user_id: userId, url: webhook.url, events: JSON.stringify(events), secret: webhook.secret, created_at: now })
      .execute();
  });
  return webhook;
}

export async function listWebhooks(deps: WebhookDeps, userId: string) {
  const rows = await deps.database.db
    .selectFrom('webhooks')
    .select(['id', 'url', 'events', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(webhookOf);
}

export async function getWebhook(deps: WebhookDeps, userId: string, id: string) {
  const row = UUID.test(id)
    ? await deps.database.db
        .selectFrom('webhooks')
        .select(['id', 'url', 'events', 'created_at'])
        .where('id', '=', id.toLowerCase())
        .where('user_id', '=', userId)
        .executeTakeFirst()
    : undefined;
  if (!row) throw notFound();
  return webhookOf(row);
}

/** Deletes the endpoint and its deliveries: what was not sent yet will not be. */
export async function deleteWebhook(deps: WebhookDeps, userId: string, id: string): Promise<void> {
  if (!UUID.test(id)) throw notFound();
  const deleted = await deps.database.db.transaction().execute(async (trx) => {
    const result = await trx.deleteFrom('webhooks').where('id', '=', id.toLowerCase()).where('user_id', '=', userId).executeTakeFirst();
    if (result.numDeletedRows === 0n) return false;
    await trx.deleteFrom('webhook_deliveries').where('webhook_id', '=', id.toLowerCase()).execute();
    return true;
  });
  if (!deleted) throw notFound();
}

/** GET /v1/webhooks/{id}/deliveries: newest first, a page at a time, as answered (schemas/webhooks.ts' DeliveryList). */
export async function listDeliveries(deps: WebhookDeps, userId: string, id: string, query: { readonly limit?: unknown; readonly cursor?: unknown }) {
  const webhook = await getWebhook(deps, userId, id);
  const { limit, after } = pageRequest(query, { default: DELIVERY_PAGE_DEFAULT, max: DELIVERY_PAGE_MAX });
  let select = deps.database.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhook.webhook_id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1);
  if (after !== undefined) select = select.where(olderThan(after));
  const { page, nextCursor } = pageOf(await select.execute(), limit);
  return {
    deliveries: page.map((row) => ({
      delivery_id: row.id,
      event: row.event_type,
      job_id: row.subject_id,
      status: row.status,
      attempts: Number(row.attempts),
      response_status: row.response_status === null ? null : Number(row.response_status),
      error: row.last_error,
      created_at: new Date(Number(row.created_at)).toISOString(),
      last_attempt_at: row.last_attempt_at === null ? null : new Date(Number(row.last_attempt_at)).toISOString(),
      // Pending: when the next attempt is due.
      next_attempt_at: row.status === 'pending' ? new Date(Number(row.next_attempt_at)).toISOString() : null,
    })),
    next_cursor: nextCursor,
  };
}

/** `{url, events}`: a string URL and a non-empty list of known event names, nothing else. */
function parseWebhookBody(body: unknown): { url: string; events: WebhookEvent[] } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalidRequest('the body must be a JSON object with url and events');
  const { url, events, ...rest } = body as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length > 0) throw invalidRequest(`unknown field ${JSON.stringify(extra[0]!.slice(0, 40))}; a webhook has url and events`);
  if (typeof url !== 'string' || url === '') throw invalidRequest('url must be a non-empty string');
  if (!Array.isArray(events) || events.length === 0) throw invalidRequest(`events must be a non-empty array of ${WEBHOOK_EVENTS.join(', ')}`);
  for (const event of events) {
    if (!isWebhookEvent(event)) {
      const shown = typeof event === 'string' ? JSON.stringify(event.slice(0, 40)) : 'a non-string';
      throw invalidRequest(`unknown event ${shown}; events are ${WEBHOOK_EVENTS.join(', ')}`);
    }
  }
  if (new Set(events).size !== events.length) throw invalidRequest('events must not repeat a name');
  return { url, events: events as WebhookEvent[] };
}

function webhookOf(row: { id: string; url: string; events: string; created_at: number }) {
  return { webhook_id: row.id, url: row.url, events: JSON.parse(row.events) as WebhookEvent[], created_at: new Date(Number(row.created_at)).toISOString() };
}

function notFound(): ServiceError {
  return new ServiceError('not_found', 'no webhook with this id');
}
