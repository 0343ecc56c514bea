import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { estimateForUser } from '../../translation/estimate-request.js';
import { translateBatchForUser, translateForUser } from '../../translation/service.js';
import { abortOnClientClose } from '../abort-on-close.js';
import { userOf } from '../plugins/auth.js';
import { parseBatchBody, parseTranslateBody } from '../schemas/translate-body.js';
import type { ProtectedHooks } from '../app.js';
import { memoryUsage } from '../schemas/memory-usage.js';

export function translateRoutes(deps: AppDeps, hooks: ProtectedHooks) {
  return async (app: FastifyInstance): Promise<void> => {
    app.post('/translate', { onRequest: hooks.limited }, async (request, reply) => {
      const input = parseTranslateBody(request.body);
      const result = await translateForUser(deps, userOf(request), input, abortOnClientClose(reply));
      const { inputTokens, outputTokens } = result.usage;
      return {
        translations: result.translations,
        usage: {
          input_tokens: inputTokens,
          output_tokens: outputTokens,
          total_tokens: inputTokens + outputTokens,
          model: input.model,
          ...memoryUsage(result, input.glossaryId),
          ...(result.detection
            ? { detected_format: result.detection.format, detection_confidence: result.detection.confidence }
            : {}),
        },
      };
    });

    // Not rate limited: an estimate makes no model call and charges nothing.
    app.post('/translate/estimate', { onRequest: hooks.authenticated }, async (request) => {
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

    app.post('/translate/batch', { onRequest: hooks.limited }, async (request, reply) => {
      const input = parseBatchBody(request.body);
      const result = await translateBatchForUser(deps, userOf(request), input, abortOnClientClose(reply));
      const { inputTokens, outputTokens } = result.usage;
      return {
        results: result.results,
        usage: {
          total_tokens: inputTokens + outputTokens,
          input_tokens: inputTokens,
          output_tokens: outputTokens,
          model: input.model,
          ...memoryUsage(result, input.glossaryId),
        },
      };
    });
  };
}
