/** Engines for tests that need the engine to fail or wait; the pseudo engine does the rest. */
import { EngineError, type ChunkTranslation, type TranslateChunkInput, type TranslationEngine } from '../../src/engines/engine.js';
import type { EngineRegistry } from '../../src/engines/registry.js';
import { PseudoEngine } from '../../src/engines/pseudo.js';
import { testTokenizer } from './tokenizer.js';

const BUDGET = { maxInputTokens: 6000, maxOutputTokens: 16384 };

export function pseudo(): PseudoEngine {
  return new PseudoEngine(BUDGET, testTokenizer);
}

/** Fails every call with `message`; `retryable` as given. Counts its calls. */
export class FailingEngine implements TranslationEngine {
  readonly id = 'failing';
  readonly budget = BUDGET;
  calls = 0;
  constructor(private readonly message = 'the model returned invalid JSON', private readonly retryable = true) {}
  async translate(): Promise<ChunkTranslation> {
    this.calls++;
    throw new EngineError(this.message, this.retryable);
  }
}

/** Wraps an engine: each call waits for `release()` (or the signal) before translating. */
export class GatedEngine implements TranslationEngine {
  readonly id = 'gated';
  readonly budget = BUDGET;
  started = 0;
  aborted = 0;
  private waiters: Array<() => void> = [];
  private open = false;
  constructor(private readonly inner: TranslationEngine = pseudo()) {}

  async translate(input: TranslateChunkInput): Promise<ChunkTranslation> {
    this.started++;
    if (!this.open) {
      await new Promise<void>((resolve, reject) => {
        this.waiters.push(resolve);
        input.signal?.addEventListener('abort', () => {
          this.aborted++;
          reject(input.signal!.reason);
        }, { once: true });
      });
    }
    return this.inner.translate(input);
  }

  release(): void {
    this.open = true;
    for (const wake of this.waiters.splice(0)) wake();
  }
}

export function registryOf(engine: TranslationEngine): EngineRegistry {
  return { standard: engine, advanced: engine };
}
