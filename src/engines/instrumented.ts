/**
 * An engine that counts its calls: latency, tokens and failures by engine id, for
 * GET /metrics. The registry wraps every engine it builds, so the pseudo engine, the
 * providers and a test's engine are all counted the same way.
 */
import { modelCallDuration, modelCalls, modelFailures, modelTokens, secondsSince } from '../metrics/metrics.js';
import type { EngineRegistry } from './registry.js';
import { EngineError, type ChunkTranslation, type TranslateChunkInput, type TranslationEngine } from './engine.js';

export function instrumented(engine: TranslationEngine): TranslationEngine {
  // Label sets made once per engine, written out (decision 0043: no literal that starts
  // with a spread and adds members).
  const id = engine.id;
  const ok = { engine: id, outcome: 'ok' };
  const failed = { engine: id, outcome: 'failed' };
  const inputTokens = { engine: id, direction: 'input' };
  const outputTokens = { engine: id, direction: 'output' };
  const retryable = { engine: id, retryable: 'true' };
  const final = { engine: id, retryable: 'false' };
  return {
    id,
    budget: engine.budget,
    ...(engine.directions ? { directions: engine.directions } : {}),
    ...(engine.close ? { close: () => engine.close!() } : {}),
    async translate(input: TranslateChunkInput): Promise<ChunkTranslation> {
      const startedAt = performance.now();
      try {
        const result = await engine.translate(input);
        modelCalls.inc(ok);
        modelCallDuration.observe(ok, secondsSince(startedAt));
        modelTokens.inc(inputTokens, result.usage.inputTokens);
        modelTokens.inc(outputTokens, result.usage.outputTokens);
        return result;
      } catch (error) {
        // A call abandoned because its request went away is not the engine's failure.
        if (!input.signal?.aborted) {
          modelCalls.inc(failed);
          modelCallDuration.observe(failed, secondsSince(startedAt));
          modelFailures.inc(error instanceof EngineError && error.retryable ? retryable : final);
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
