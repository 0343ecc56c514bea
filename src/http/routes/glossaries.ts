import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.js';
import type { Glossary } from '../../glossaries/glossary.js';
import { createGlossary, getGlossary, listUserGlossaries, putGlossary, removeGlossary } from '../../glossaries/service.js';
import { registerJsonBody } from '../json-body.js';
import { userOf } from '../plugins/auth.js';
import type { ProtectedHooks } from '../app.js';

type ById = { Params: { id: string } };

export function glossaryRoutes(deps: AppDeps, hooks: ProtectedHooks) {
  return async (app: FastifyInstance): Promise<void> => {
    // DELETE takes no body; POST and PUT without one answer "must be a JSON object".
    registerJsonBody(app, { allowEmpty: true });
    const onRequest = hooks.authenticated;

    app.post('/glossaries', { onRequest }, async (request, reply) => {
      const glossary = await createGlossary(deps, userOf(request).id, request.body);
      return reply.status(201).send(summary(glossary));
    });

    app.get('/glossaries', { onRequest }, async (request) => {
      const glossaries = await listUserGlossaries(deps, userOf(request).id);
      return { glossaries: glossaries.map(summary) };
    });

    app.get<ById>('/glossaries/:id', { onRequest }, async (request) => detail(await getGlossary(deps, userOf(request).id, request.params.id)));

    app.put<ById>('/glossaries/:id', { onRequest }, async (request) =>
      detail(await putGlossary(deps, userOf(request).id, request.params.id, request.body)),
    );

    app.delete<ById>('/glossaries/:id', { onRequest }, async (request, reply) => {
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
  return {
    ...summary(glossary),
    version: glossary.version,
    entries: glossary.entries.map((entry) => ({ term: entry.term, translations: entry.translations })),
    do_not_translate: glossary.doNotTranslate,
  };
}
