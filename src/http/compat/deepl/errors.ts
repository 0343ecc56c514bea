/**
 * Errors under /deepl: DeepL's statuses with a `{"message"}` body, which its clients turn
 * into their error classes (deepl-node: 403 AuthorizationError, 456 QuotaExceededError,
 * 429 TooManyRequestsError, 400 DeepLError "Bad request, message: …"). Our codes map:
 * a bad key is 403 (DeepL never answers 401), a spent free grant is 456 (DeepL's "quota
 * exceeded"), the rate limit stays 429 with its Retry-After. The `error` code is kept
 * beside the message so a person reading the body sees this service's code too.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { toErrorResponse } from '../../errors.js';
import { quote } from '../../quote.js';
import type { ErrorCode } from '../../../errors.js';

const STATUS: Partial<Record<ErrorCode, number>> = {
  invalid_api_key: 403,
  token_limit_reached: 456,
  // A model the key's tier cannot use is a bad parameter, not a bad key: 403 would read as one.
  advanced_not_available: 400,
  invalid_format: 400,
  invalid_language: 400,
};

const MEDIA_TYPE = 'the body must be form-encoded (application/x-www-form-urlencoded) or JSON (application/json)';

export function registerDeeplErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, body } = toErrorResponse(error);
    const deeplStatus = STATUS[body.error] ?? status;
    const message = (error as { code?: string }).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? MEDIA_TYPE : body.message;
    if (deeplStatus >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: body.error }, message);
    void reply.status(deeplStatus).send({ message, error: body.error });
  });
  app.setNotFoundHandler((request, reply) => {
    void reply.status(404).send({ message: `not supported by this server: ${request.method} ${quote(request.url.split('?')[0]!)}`, error: 'not_found' });
  });
}
