/**
 * The pseudo engine as it was before it yielded: the same transform and counts, run in one
 * synchronous stretch per call. The "before" rows use it so they measure the old behaviour.
 */
import type { CallBudget, ChunkTranslation, TranslateChunkInput, TranslationEngine } from '../../src/engines/engine.js';
import { pseudoTranslate } from '../../src/engines/pseudo.js';
import { countTokens } from '../../test/helpers/tokenizer.js';

export class BlockingPseudoEngine implements TranslationEngine {
  readonly id = 'pseudo';
  constructor(readonly budget: CallBudget) {}

  async translate(input: TranslateChunkInput): Promise<ChunkTranslation> {
    input.signal?.throwIfAborted();
    let inputTokens = 0;
    for (const segment of input.segments) inputTokens += countTokens(segment.text);
    let outputTokens = 0;
    const translations = new Map<string, Map<string, string>>();
    for (const target of input.targets) {
      const bySegment = new Map<string, string>();
      for (const segment of input.segments) {
        const translated = pseudoTranslate(segment.text, target.rtl);
        outputTokens += countTokens(translated);
        bySegment.set(segment.id, translated);
      }
      translations.set(target.code, bySegment);
    }
    return { translations, usage: { inputTokens, outputTokens } };
  }
}
