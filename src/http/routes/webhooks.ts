import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { createWebhook, deleteWebhook, getWebhook, listDeliveries, listWebhooks } from '../../webhooks/service.js';
import { registerJsonBody } from '../json-body.js';
import { userOf } from '../plugins/auth.js';
import { NoContent, authenticatedRoute } from '../schemas/route.js';
import { DeliveryList, DeliveryListQuery, WebhookBody, WebhookCreated, WebhookList, WebhookParams, Webhook as WebhookSchema } from '../schemas/webhooks.js';
import type { ProtectedHooks } from '../protected-hooks.js';

type ById = { Params: { id: string } };

const createSchema = authenticatedRoute({
  tag: 'webhooks',
  summary: 'Register a webhook endpoint',
  description: 'Deliveries follow the Standard Webhooks specification (docs/webhooks.md). The answer carries the signing secret, shown once.',
  body: WebhookBody,
  answers: { 201: WebhookCreated },
  errors: ['invalid_request', 'payload_too_large', 'webhook_limit_reached'],
});

const listSchema = authenticatedRoute({ tag: 'webhooks', summary: 'Your webhook endpoints, newest first', answers: { 200: WebhookList }, errors: [] });

const getSchema = authenticatedRoute({
  tag: 'webhooks',
  summary: 'One webhook endpoint (without its secret)',
  params: WebhookParams,
  answers: { 200: WebhookSchema },
  errors: ['not_found'],
});

const deleteSchema = authenticatedRoute({
  tag: 'webhooks',
  summary: 'Delete a webhook endpoint',
  description: 'Its deliveries not yet sent are dropped.',
  params: WebhookParams,
  answers: { 204: NoContent },
  errors: ['not_found'],
});

const deliveriesSchema = authenticatedRoute({
  tag: 'webhooks',
  summary: 'Recent deliveries to an endpoint, newest first',
  description: 'Each with its status, attempts and the last answer\'s HTTP status.',
  params: WebhookParams,
  query: DeliveryListQuery,
  answers: { 200: DeliveryList },
  errors: ['not_found'],
});

export function webhookRoutes(deps: AppDeps, hooks: ProtectedHooks) {
  return async (app: FastifyInstance): Promise<void> => {
    // DELETE takes no body; POST without one answers "must be a JSON object".
    registerJsonBody(app, { allowEmpty: true });
    const onRequest = hooks.authenticated;

    app.post('/webhooks', { schema: createSchema, onRequest }, async (request, reply) =>
      reply.status(201).send(await createWebhook(deps, userOf(request).id, request.body)),
    );

    app.get('/webhooks', { schema: listSchema, onRequest }, async (request) => ({ webhooks: await listWebhooks(deps, userOf(request).id) }));

    app.get<ById>('/webhooks/:id', { schema: getSchema, onRequest }, async (request) => getWebhook(deps, userOf(request).id, request.params.id));

    app.delete<ById>('/webhooks/:id', { schema: deleteSchema, onRequest }, async (request, reply) => {
      await deleteWebhook(deps, userOf(request).id, request.params.id);
      return reply.status(204).send();
    });

    app.get<ById>('/webhooks/:id/deliveries', { schema: deliveriesSchema, onRequest }, async (request) =>
      listDeliveries(deps, userOf(request).id, request.params.id, request.query as Record<string, unknown>),
    );
  };
}
