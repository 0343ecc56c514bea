/**
 * The DeepL API v2 under /deepl/v2 (a client's server URL is `http://HOST:PORT/deepl`):
 * translate, languages and usage over the same services, user, rate limit, grant and
 * pre-check as /v1. Glossaries join in a later pass, backed by this service's own
 * (issue 14): until then the two lists answer empty (Weblate asks for the language pairs
 * before it translates) and the rest of /v2/glossaries answers 404.
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
import { deeplAuthHook } from './auth.js';
import { registerDeeplErrors } from './errors.js';
import { markIgnored, unmarkIgnored } from './ignore-tags.js';
import { SOURCE_LANGUAGES, TARGET_LANGUAGES, toDeeplCode } from './language-codes.js';
import { modelFor, parseDeeplTranslate } from './translate-request.js';
import { deeplUsage } from './usage-report.js';

/** Reported when neither the request nor detection names the source: DeepL's answer always has one. */
const UNKNOWN_SOURCE = 'EN';

export function deeplRoutes(deps: AppDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    registerDeeplErrors(app);
    await acceptFormBodies(app);
    const authenticated = [deeplAuthHook(deps)] as onRequestHookHandler[];
    const limited = [...authenticated, rateLimitHook(deps) as onRequestHookHandler];

    app.post('/v2/translate', { onRequest: limited }, async (request, reply) => {
      const user = userOf(request);
      const parsed = parseDeeplTranslate(fieldsOf(request.body));
      const model = modelFor(parsed.modelType, canUseAdvanced(user.tier));
      const items = parsed.texts.map((text, i) => ({
        id: String(i),
        content: markIgnored(text, parsed.format === 'html' ? parsed.ignoreTags : []),
        format: parsed.format,
      }));
      const result = await translateBatchForUser(
        deps,
        user,
        { items, targets: [parsed.target], model, memory: true, ...(parsed.source ? { source: parsed.source } : {}) },
        abortOnClientClose(reply),
      );
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

    // `type` comes in the query (GET, as clients send it) or the body (POST); source is the default.
    const languages = async (request: FastifyRequest) => {
      const type = fieldsOf(request.query)?.type ?? fieldsOf(request.body)?.type;
      return type === 'target' ? TARGET_LANGUAGES : SOURCE_LANGUAGES;
    };
    app.get('/v2/languages', { onRequest: authenticated }, languages);
    app.post('/v2/languages', { onRequest: authenticated }, languages);

    // Glossaries: the later pass replaces these two with the real lists and adds the rest.
    app.get('/v2/glossary-language-pairs', { onRequest: authenticated }, async () => ({ supported_languages: [] }));
    app.get('/v2/glossaries', { onRequest: authenticated }, async () => ({ glossaries: [] }));

    app.get('/v2/usage', { onRequest: authenticated }, async (request) => deeplUsage(await usageReportFor(deps, userOf(request))));
    app.post('/v2/usage', { onRequest: authenticated }, async (request) => deeplUsage(await usageReportFor(deps, userOf(request))));
  };
}
