/**
 * Token counts with a real tokenizer (o200k_base, gpt-tokenizer): the `pseudo`
 * engine's usage, the chunk planner's estimates. It is exact for OpenAI's current
 * models and an estimate for the others.
 */
import { countTokens as countO200kTokens } from 'gpt-tokenizer/encoding/o200k_base';

export function countTokens(text: string): number {
  return text.length === 0 ? 0 : countO200kTokens(text);
}
