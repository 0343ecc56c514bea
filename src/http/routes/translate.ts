import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { estimateForUser } from '../../translation/estimate-request.js';
import { translateBatchForUser, translateForUser, type SourcedTranslation } from '../../translation/service.js';
import type { TranslateInput } from '../../translation/requests.js';
import { abortOnClientClose } from '../abort-on-close.js';
import { toErrorResponse } from '../errors.js';
import { EventStream, wantsEventStream } from '../event-stream.js';
import { userOf } from '../plugins/auth.js';
import { serializedWhenLarge } from '../plugins/large-answers.js';
import { BILLED_ERRORS, BODY_ERRORS } from '../schemas/errors.js';
import { authenticatedRoute, limitedRoute } from '../schemas/route.js';
import { BatchAnswer, BatchBody, EstimateAnswer, TranslateAnswer, TranslateBody, TranslateEvents } from '../schemas/translate.js';
import { parseBatchBody, parseTranslateBody } from '../schemas/translate-body.js';
import type { ProtectedHooks } from '../protected-hooks.js';
import { memoryUsage } from '../schemas/memory-usage.js';

/** What translating a document can fail with, beyond the body's checks: the glossary lookup (404), its reading (422) and the model (500). */
const WORK_ERRORS = [...BODY_ERRORS, ...BILLED_ERRORS, 'not_found', 'document_too_complex', 'translation_error'] as const;

const translateSchema = limitedRoute({
  tag: 'translation',
  summary: 'Translate one document into up to 36 languages',
  description:
    'The answer waits for the translation. The format is detected when omitted; the answer then says what was detected and how sure. With `Accept: text/event-stream` the answer is Server-Sent Events instead: a `translation` event per target as soon as it is complete, then `usage`, then `done` (docs/streaming.md).',
  body: TranslateBody,
  answers: { 200: TranslateAnswer },
  eventStream: TranslateEvents,
  errors: WORK_ERRORS,
  idempotent: true,
});

const estimateSchema = authenticatedRoute({
  tag: 'translation',
  summary: 'What POST /v1/translate would cost now, without translating',
  description:
    'The same body and checks as POST /v1/translate (glossary lookup, reading the document, tier access), then the memory lookup and the call plan; no model call, no charge, no reservation, and it does not spend the rate limit (docs/decisions/0019).',
  body: TranslateBody,
  answers: { 200: EstimateAnswer },
  errors: [...BODY_ERRORS, 'not_found', 'document_too_complex', 'advanced_not_available'],
});

const batchSchema = limitedRoute({
  tag: 'translation',
  summary: 'Translate up to 100 documents into the same languages',
  description: 'All or nothing: one failed item fails the request with 500 translation_error, and nothing is charged.',
  body: BatchBody,
  answers: { 200: BatchAnswer },
  errors: WORK_ERRORS,
  idempotent: true,
});

/**
 * POST /v1/translate as Server-Sent Events (docs/streaming.md): refusals before the work
 * starts are the usual JSON errors; after it, each target as it completes, then usage and
 * done — or an `error` event, with nothing charged.
 */
async function streamTranslation(deps: AppDeps, request: FastifyRequest, reply: FastifyReply, input: TranslateInput): Promise<FastifyReply> {
  const events = new EventStream(reply);
  try {
    const result = await translateForUser(deps, userOf(request), input, abortOnClientClose(reply), {
      started: () => events.open(),
      targetDone: (target, text) => events.send('translation', { target, text }),
    });
    request.work = result.work;
    events.send('usage', translateUsage(result, input));
    events.send('done', {});
  } catch (error) {
    if (!events.opened) throw error;
    const { status, body } = toErrorResponse(error);
    if (reply.raw.destroyed) request.log.info('the client went away during a streamed translation; the rest was cancelled, nothing charged');
    else if (status >= 500) request.log.error({ err: error }, 'a streamed translation failed after it started');
    else request.log.info({ code: body.error }, body.message);
    events.send('error', body);
  } finally {
    events.end();
  }
  return reply;
}

function translateUsage(result: SourcedTranslation, input: TranslateInput) {
  const { inputTokens, outputTokens } = result.usage;
  return {
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
    model: input.model,
    ...memoryUsage(result, input.glossaryId),
    ...(result.detection ? { detected_format: result.detection.format, detection_confidence: result.detection.confidence } : {}),
    ...(result.sourceDetection
      ? { detected_source: result.sourceDetection.language.code, source_confidence: result.sourceDetection.confidence }
      : {}),
  };
}

export function translateRoutes(deps: AppDeps, hooks: ProtectedHooks) {
  return async (plain: FastifyInstance): Promise<void> => {
    const app = plain.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/translate', { schema: translateSchema, config: { eventStream: true }, onRequest: hooks.limited, ...hooks.idempotent }, async (request, reply) => {
      const input = parseTranslateBody(request.body);
      if (wantsEventStream(request)) return streamTranslation(deps, request, reply, input);
      const result = await translateForUser(deps, userOf(request), input, abortOnClientClose(reply));
      request.work = result.work;
      return serializedWhenLarge({ translations: result.translations, usage: translateUsage(result, input) }, [result.translations]);
    });

    // Not rate limited: an estimate makes no model call and charges nothing.
    app.post('/translate/estimate', { schema: estimateSchema, onRequest: hooks.authenticated }, async (request) => {
      const estimate = await estimateForUser(deps, userOf(request), parseTranslateBody(request.body));
      return {
        input_tokens: estimate.inputTokens,
        output_tokens: estimate.outputTokens,
        total_tokens: estimate.inputTokens + estimate.outputTokens,
        cached_segments: estimate.cachedSegments,
        model_calls: estimate.modelCalls,
        precheck: { passes: estimate.precheck.passes, tokens_remaining: estimate.precheck.tokensRemaining },
      };
    });

    app.post('/translate/batch', { schema: batchSchema, onRequest: hooks.limited, ...hooks.idempotent }, async (request, reply) => {
      const input = parseBatchBody(request.body);
      const result = await translateBatchForUser(deps, userOf(request), input, abortOnClientClose(reply));
      request.work = result.work;
      const { inputTokens, outputTokens } = result.usage;
      const answer = {
        results: result.results.map(({ id, translations }) => ({ id, translations })),
        usage: {
          total_tokens: inputTokens + outputTokens,
          input_tokens: inputTokens,
          output_tokens: outputTokens,
          model: input.model,
          ...memoryUsage(result, input.glossaryId),
        },
      };
      return serializedWhenLarge(answer, answer.results.map(({ translations }) => translations));
    });
  };
}
