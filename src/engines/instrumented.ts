/**
 * An engine that counts its calls: latency, tokens and failures by engine id, for
 * GET /metrics. The registry wraps every engine it builds, so the pseudo engine, the
 * providers and a test's engine are all counted the same way.
 */
import { modelCallDuration, modelCalls, modelFailures, modelTokens, secondsSince } from '../metrics/metrics.js';
import type { EngineRegistry } from './registry.js';
import { EngineError, type ChunkTranslation, type TranslateChunkInput, type TranslationEngine } from './engine.js';

export function instrumented(engine: TranslationEngine): TranslationEngine {
  const labels = { engine: engine.id };
  return {
    id: engine.id,
    budget: engine.budget,
    async translate(input: TranslateChunkInput): Promise<ChunkTranslation> {
      const startedAt = performance.now();
      try {
        const result = await engine.translate(input);
        modelCalls.inc({ ...labels, outcome: 'ok' });
        modelCallDuration.observe({ ...labels, outcome: 'ok' }, secondsSince(startedAt));
        modelTokens.inc({ ...labels, direction: 'input' }, result.usage.inputTokens);
        modelTokens.inc({ ...labels, direction: 'output' }, result.usage.outputTokens);
        return result;
      } catch (error) {
        // A call abandoned because its request went away is not the engine's failure.
        if (!input.signal?.aborted) {
          modelCalls.inc({ ...labels, outcome: 'failed' });
          modelCallDuration.observe({ ...labels, outcome: 'failed' }, secondsSince(startedAt));
          modelFailures.inc({ ...labels, retryable: String(error instanceof EngineError && error.retryable) });
        }
        throw error;
      }
    },
  };
}

/** The registry with each engine counted once, also when both models share one engine. */
export function instrumentedRegistry(registry: EngineRegistry): EngineRegistry {
  const standard = instrumented(registry.standard);
  return { standard, advanced: registry.advanced === registry.standard ? standard : instrumented(registry.advanced) };
}
