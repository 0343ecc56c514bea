/**
 * Token counts with a real tokenizer (o200k_base, gpt-tokenizer): the `pseudo`
 * engine's usage, the chunk planner's estimates. It is exact for OpenAI's current
 * models and an estimate for the others.
 */
import { clearMergeCache, countTokens as countO200kTokens } from 'gpt-tokenizer/encoding/o200k_base';

/**
 * BPE merging is super-linear in the length of one pre-token, so a 2 MiB run with no
 * whitespace would stall the process for minutes. Runs longer than this are counted in
 * slices of this length; for ordinary text (words are short) the count is unchanged.
 */
const LONGEST_RUN = 256;
const LONG_RUN = new RegExp(`\\S{${LONGEST_RUN + 1},}`, 'g');

/**
 * The tokenizer keeps each pre-token it has merged in a Map of 100,000 entries and, once
 * full, evicts the oldest one at a time, which gets slower on V8's Map the more entries
 * have been deleted. Long runs without white space (base64, hashes, minified code) are
 * pre-tokens that never come again: 1.8 MB of base64 filled the Map, took 5 s to count
 * instead of about 1, and left every later count paying for evictions. So the Map is
 * emptied once JUNK_CHARACTERS characters of such runs have been counted since it was
 * last emptied (at most about a third as many entries): ordinary text, which never
 * empties it, keeps the cache it profits from (common words are merged once).
 */
const JUNK_CHARACTERS = 65_536;
let junkSinceClear = 0;

export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  let total = 0;
  let last = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    if (match.index > last) total += countO200kTokens(text.slice(last, match.index));
    for (let i = 0; i < match[0].length; i += LONGEST_RUN) {
      if (junkSinceClear >= JUNK_CHARACTERS) {
        clearMergeCache();
        junkSinceClear = 0;
      }
      const slice = match[0].slice(i, i + LONGEST_RUN);
      junkSinceClear += slice.length;
      total += countO200kTokens(slice);
    }
    last = match.index + match[0].length;
  }
  if (last < text.length) total += countO200kTokens(text.slice(last));
  return total;
}
