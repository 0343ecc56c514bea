/**
 * The LibreTranslate API under /libretranslate (a client's server URL is
 * `http://HOST:PORT/libretranslate`): translate and detect over the same services, user,
 * rate limit, grant and pre-check as /v1; languages and the front-end settings that its
 * clients read without a key.
 */
import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { translateBatchForUser } from '../../../translation/service.js';
import type { SourceDetection } from '../../../translation/detect-source.js';
import { abortOnClientClose } from '../../abort-on-close.js';
import { userOf } from '../../plugins/auth.js';
import { rateLimitHook } from '../../plugins/rate-limit.js';
import { acceptFormBodies, fieldsOf } from '../form-body.js';
import { libreTranslateAuthHook } from './auth.js';
import { registerLibreTranslateErrors } from './errors.js';
import { LIBRE_LANGUAGES, libreLanguagesOf } from './language-codes.js';
import { parseDetect, parseLibreTranslate } from './translate-request.js';


/** What LibreTranslate's web front end and some clients read before they translate. */
const FRONTEND_SETTINGS = {
  // No per-text character limit: the 2 MiB body limit and the grant bound a request.
  charLimit: -1,
  frontendTimeout: 500,
  apiKeys: true,
  keyRequired: true,
  suggestions: false,
  filesTranslation: false,
  supportedFilesFormat: [],
  language: { source: { code: 'auto', name: 'Auto Detect' }, target: { code: 'en', name: 'English' } },
};

export function libreTranslateRoutes(deps: AppDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    registerLibreTranslateErrors(app);
    // LibreTranslate translates with the standard model; an engine with directions lists what it can do.
    const directions = deps.engines.standard.directions;
    const languagesBody = JSON.stringify(directions ? libreLanguagesOf(directions) : LIBRE_LANGUAGES);
    await acceptFormBodies(app);
    const limited = [libreTranslateAuthHook(deps), rateLimitHook(deps)] as preHandlerHookHandler[];

    app.post('/translate', { preHandler: limited }, async (request, reply) => {
      const parsed = parseLibreTranslate(fieldsOf(request.body), isForm(request));
      const items = parsed.texts.map((content, i) => ({ id: String(i), content, format: parsed.format }));
      const result = await translateBatchForUser(
        deps,
        userOf(request),
        { items, targets: [parsed.target], model: 'standard', memory: true, ...(parsed.source ? { source: parsed.source } : {}) },
        abortOnClientClose(reply),
      );
      request.work = result.work;
      const texts = result.results.map((item) => item.translations[parsed.target.requested]!);
      const detected = parsed.source ? undefined : (result.sourceDetections ?? []).map(detectedLanguage);
      const alternatives = parsed.alternatives > 0 ? texts.map(() => [] as string[]) : undefined;
      return {
        translatedText: parsed.batch ? texts : texts[0],
        ...(detected ? { detectedLanguage: parsed.batch ? detected : detected[0] } : {}),
        ...(alternatives ? { alternatives: parsed.batch ? alternatives : alternatives[0] } : {}),
      };
    });

    app.post('/detect', { preHandler: limited }, async (request) => {
      const texts = parseDetect(fieldsOf(request.body), isForm(request));
      return [detectedLanguage(await deps.detector.detect(texts))];
    });

    app.get('/languages', async (_request, reply) => reply.type('application/json; charset=utf-8').send(languagesBody));
    app.get('/frontend/settings', async () => FRONTEND_SETTINGS);
  };
}

/** LibreTranslate reports confidence in percent; text with nothing to judge is English at 0, as it answers. */
function detectedLanguage(detection: SourceDetection | undefined): { confidence: number; language: string } {
  if (!detection) return { confidence: 0, language: 'en' };
  return { confidence: Math.round(detection.confidence * 1000) / 10, language: detection.language.code };
}

function isForm(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
}
