/**
 * Errors under /libretranslate: LibreTranslate's `{"error": "<message>"}` bodies and its
 * statuses. A missing key is 400 and an unknown one 403, as LibreTranslate answers when
 * keys are required; a spent free grant is 403 too, which Mastodon reads as "quota
 * exceeded" (app/lib/translation_service/libre_translate.rb); the rate limit is 429 with
 * LibreTranslate's "Slowdown:" prefix and our Retry-After. Other codes keep their status.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { toErrorResponse } from '../../errors.js';
import { quote } from '../../quote.js';

const MEDIA_TYPE = 'the body must be JSON (application/json) or form-encoded (application/x-www-form-urlencoded)';

export function registerLibreTranslateErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, body } = toErrorResponse(error);
    let libreStatus = status;
    let message = body.message;
    if (body.error === 'invalid_api_key') libreStatus = message.startsWith('no API key') ? 400 : 403;
    else if (body.error === 'token_limit_reached' || body.error === 'advanced_not_available') libreStatus = 403;
    else if (body.error === 'rate_limit_reached') message = `Slowdown: ${message}`;
    else if ((error as { code?: string }).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') message = MEDIA_TYPE;
    if (libreStatus >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: body.error }, message);
    void reply.status(libreStatus).send({ error: message });
  });
  app.setNotFoundHandler((request, reply) => {
    void reply.status(404).send({ error: `not supported by this server: ${request.method} ${quote(request.url.split('?')[0]!)}` });
  });
}
