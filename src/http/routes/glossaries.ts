import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.js';
import type { Glossary } from '../../glossaries/glossary.js';
import { createGlossary, getGlossary, listUserGlossaries, putGlossary, removeGlossary } from '../../glossaries/service.js';
import { registerJsonBody } from '../json-body.js';
import { userOf } from '../plugins/auth.js';
import { GlossaryBody, GlossaryDetail, GlossaryList, GlossaryParams, GlossarySummary } from '../schemas/glossaries.js';
import { NoContent, authenticatedRoute } from '../schemas/route.js';
import type { ProtectedHooks } from '../protected-hooks.js';

type ById = { Params: { id: string } };

/** What a glossary body can fail with (src/glossaries/validate.ts, docs/glossaries.md "Limits"). */
const GLOSSARY_BODY_ERRORS = ['invalid_request', 'invalid_language', 'payload_too_large'] as const;

const createSchema = authenticatedRoute({
  tag: 'glossaries',
  summary: 'Create a glossary',
  description: 'Answers its summary; use its glossary_id in translate, batch, estimate and job requests.',
  body: GlossaryBody,
  answers: { 201: GlossarySummary },
  errors: GLOSSARY_BODY_ERRORS,
});

const listSchema = authenticatedRoute({
  tag: 'glossaries',
  summary: 'Your glossaries, newest first',
  answers: { 200: GlossaryList },
  errors: [],
});

const getSchema = authenticatedRoute({
  tag: 'glossaries',
  summary: 'One glossary with its entries',
  params: GlossaryParams,
  answers: { 200: GlossaryDetail },
  errors: ['not_found'],
});

const replaceSchema = authenticatedRoute({
  tag: 'glossaries',
  summary: 'Replace a glossary\'s content',
  description: 'Raises its version: translations made under the old content are not reused from memory.',
  params: GlossaryParams,
  body: GlossaryBody,
  answers: { 200: GlossaryDetail },
  errors: [...GLOSSARY_BODY_ERRORS, 'not_found'],
});

const deleteSchema = authenticatedRoute({
  tag: 'glossaries',
  summary: 'Delete a glossary',
  description: 'A job still waiting that names it fails with "no glossary with this id".',
  params: GlossaryParams,
  answers: { 204: NoContent },
  errors: ['not_found'],
});

export function glossaryRoutes(deps: AppDeps, hooks: ProtectedHooks) {
  return async (app: FastifyInstance): Promise<void> => {
    // DELETE takes no body; POST and PUT without one answer "must be a JSON object".
    registerJsonBody(app, { allowEmpty: true });
    const onRequest = hooks.authenticated;

    app.post('/glossaries', { schema: createSchema, onRequest }, async (request, reply) => {
      const glossary = await createGlossary(deps, userOf(request).id, request.body);
      return reply.status(201).send(summary(glossary));
    });

    app.get('/glossaries', { schema: listSchema, onRequest }, async (request) => {
      const glossaries = await listUserGlossaries(deps, userOf(request).id);
      return { glossaries: glossaries.map(summary) };
    });

    app.get<ById>('/glossaries/:id', { schema: getSchema, onRequest }, async (request) => detail(await getGlossary(deps, userOf(request).id, request.params.id)));

    app.put<ById>('/glossaries/:id', { schema: replaceSchema, onRequest }, async (request) =>
      detail(await putGlossary(deps, userOf(request).id, request.params.id, request.body)),
    );

    app.delete<ById>('/glossaries/:id', { schema: deleteSchema, onRequest }, async (request, reply) => {
      await removeGlossary(deps, userOf(request).id, request.params.id);
      return reply.status(204).send();
    });
  };
}

function summary(glossary: Glossary) {
  return {
    glossary_id: glossary.id,
    name: glossary.name,
    source: glossary.source,
    entry_count: glossary.entries.length,
    created_at: new Date(glossary.createdAt).toISOString(),
    updated_at: new Date(glossary.updatedAt).toISOString(),
  };
}

function detail(glossary: Glossary) {
  // summary's members, then the detail's: added to summary's fresh object (decision 0043).
  return Object.assign(summary(glossary), {
    version: glossary.version,
    entries: glossary.entries.map((entry) => ({ term: entry.term, translations: entry.translations })),
    do_not_translate: glossary.doNotTranslate,
  });
}
