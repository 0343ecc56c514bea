/**
 * Token counts with a real tokenizer (o200k_base, gpt-tokenizer): the `pseudo`
 * engine's usage, the chunk planner's estimates. It is exact for OpenAI's current
 * models and an estimate for the others.
 */
import { countTokens as countO200kTokens } from 'gpt-tokenizer/encoding/o200k_base';

/**
 * BPE merging is super-linear in the length of one pre-token, so a 2 MiB run with no
 * whitespace would stall the process for minutes. Runs longer than this are counted in
 * slices of this length; for ordinary text (words are short) the count is unchanged.
 */
const LONGEST_RUN = 256;
const LONG_RUN = new RegExp(`\\S{${LONGEST_RUN + 1},}`, 'g');

export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  let total = 0;
  let last = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    if (match.index > last) total += countO200kTokens(text.slice(last, match.index));
    for (let i = 0; i < match[0].length; i += LONGEST_RUN) {
      total += countO200kTokens(match[0].slice(i, i + LONGEST_RUN));
    }
    last = match.index + match[0].length;
  }
  if (last < text.length) total += countO200kTokens(text.slice(last));
  return total;
}
