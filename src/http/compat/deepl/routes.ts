/**
 * The DeepL API v2 under /deepl/v2 (a client's server URL is `http://HOST:PORT/deepl`):
 * translate, languages, usage and glossaries over the same services, user, rate limit,
 * grant and pre-check as /v1. Glossaries are this service's own, seen as DeepL's
 * one-pair glossaries (glossaries.ts, docs/decisions/0033).
 */
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { canUseAdvanced } from '../../../usage/grants.js';
import { usageReportFor } from '../../../usage/service.js';
import { translateBatchForUser } from '../../../translation/service.js';
import { abortOnClientClose } from '../../abort-on-close.js';
import { userOf } from '../../plugins/auth.js';
import { rateLimitHook } from '../../plugins/rate-limit.js';
import { acceptFormBodies, fieldsOf } from '../form-body.js';
import { createGlossary, getGlossary, listUserGlossaries, removeGlossary } from '../../../glossaries/service.js';
import { deeplAuthHook } from './auth.js';
import { entriesAsTsv } from './glossary-entries.js';
import { asDeeplPair, assertPairFits, createBodyFromDeepl, GLOSSARY_LANGUAGE_PAIRS, glossaryInfo, requirePair, withLineNumbers } from './glossaries.js';
import { registerDeeplErrors } from './errors.js';
import { markIgnored, unmarkIgnored } from './ignore-tags.js';
import { deeplLanguagesOf, SOURCE_LANGUAGES, TARGET_LANGUAGES, toDeeplCode } from './language-codes.js';
import { modelFor, parseDeeplTranslate } from './translate-request.js';
import { deeplUsage } from './usage-report.js';

/** Reported when neither the request nor detection names the source: DeepL's answer always has one. */
const UNKNOWN_SOURCE = 'EN';

type ById = { Params: { id: string } };

export function deeplRoutes(deps: AppDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    registerDeeplErrors(app);
    await acceptFormBodies(app);
    const authenticated = [deeplAuthHook(deps)] as onRequestHookHandler[];
    const limited = [...authenticated, rateLimitHook(deps) as onRequestHookHandler];

    app.post('/v2/translate', { onRequest: limited }, async (request, reply) => {
      const user = userOf(request);
      const parsed = parseDeeplTranslate(fieldsOf(request.body));
      if (parsed.glossaryId !== undefined) {
        assertPairFits(requirePair(await getGlossary(deps, user.id, parsed.glossaryId)), parsed.source!, parsed.target.language);
      }
      const model = modelFor(parsed.modelType, canUseAdvanced(user.tier));
      const items = parsed.texts.map((text, i) => ({
        id: String(i),
        content: markIgnored(text, parsed.format === 'html' ? parsed.ignoreTags : []),
        format: parsed.format,
      }));
      const result = await translateBatchForUser(
        deps,
        user,
        {
          items,
          targets: [parsed.target],
          model,
          memory: true,
          ...(parsed.source ? { source: parsed.source } : {}),
          ...(parsed.glossaryId ? { glossaryId: parsed.glossaryId, glossaryBaseForRegions: true } : {}),
          ...(parsed.instructions ? { instructions: parsed.instructions } : {}),
        },
        abortOnClientClose(reply),
      );
      request.work = result.work;
      const translations = result.results.map((item, i) => {
        const detected = parsed.source ?? result.sourceDetections?.[i]?.language;
        return {
          detected_source_language: detected ? toDeeplCode(detected) : UNKNOWN_SOURCE,
          text: unmarkIgnored(item.translations[parsed.target.requested]!, parsed.format === 'html' ? parsed.ignoreTags : []),
          ...(parsed.showBilledCharacters ? { billed_characters: [...parsed.texts[i]!].length } : {}),
          ...(parsed.modelType ? { model_type_used: model === 'advanced' ? 'quality_optimized' : 'latency_optimized' } : {}),
        };
      });
      return { translations };
    });

    // DeepL's default model is the standard one; an engine with directions lists what it can do.
    const directions = deps.engines.standard.directions;
    const listed = directions ? deeplLanguagesOf(directions) : { source: SOURCE_LANGUAGES, target: TARGET_LANGUAGES };
    // `type` comes in the query (GET, as clients send it) or the body (POST); source is the default.
    const languages = async (request: FastifyRequest) => {
      const type = fieldsOf(request.query)?.type ?? fieldsOf(request.body)?.type;
      return type === 'target' ? listed.target : listed.source;
    };
    app.get('/v2/languages', { onRequest: authenticated }, languages);
    app.post('/v2/languages', { onRequest: authenticated }, languages);

    app.get('/v2/glossary-language-pairs', { onRequest: authenticated }, async () => ({ supported_languages: GLOSSARY_LANGUAGE_PAIRS }));

    app.post('/v2/glossaries', { onRequest: authenticated }, async (request, reply) => {
      const { body, lines } = createBodyFromDeepl(fieldsOf(request.body));
      const glossary = await createGlossary(deps, userOf(request).id, body).catch((error: unknown) => {
        throw withLineNumbers(error, lines);
      });
      return reply.status(201).send(glossaryInfo(glossary, requirePair(glossary)));
    });

    app.get('/v2/glossaries', { onRequest: authenticated }, async (request) => {
      const glossaries = await listUserGlossaries(deps, userOf(request).id);
      return {
        glossaries: glossaries.flatMap((glossary) => {
          const pair = asDeeplPair(glossary);
          return pair ? [glossaryInfo(glossary, pair)] : [];
        }),
      };
    });

    app.get<ById>('/v2/glossaries/:id', { onRequest: authenticated }, async (request) => {
      const glossary = await getGlossary(deps, userOf(request).id, request.params.id);
      return glossaryInfo(glossary, requirePair(glossary));
    });

    // TSV whatever the Accept header says: deepl-node sends none, DeepL offers no other type.
    app.get<ById>('/v2/glossaries/:id/entries', { onRequest: authenticated }, async (request, reply) => {
      const pair = requirePair(await getGlossary(deps, userOf(request).id, request.params.id));
      return reply.type('text/tab-separated-values; charset=utf-8').send(entriesAsTsv(pair.entries));
    });

    app.delete<ById>('/v2/glossaries/:id', { onRequest: authenticated }, async (request, reply) => {
      const userId = userOf(request).id;
      requirePair(await getGlossary(deps, userId, request.params.id));
      await removeGlossary(deps, userId, request.params.id);
      return reply.status(204).send();
    });

    app.get('/v2/usage', { onRequest: authenticated }, async (request) => deeplUsage(await usageReportFor(deps, userOf(request))));
    app.post('/v2/usage', { onRequest: authenticated }, async (request) => deeplUsage(await usageReportFor(deps, userOf(request))));
  };
}
