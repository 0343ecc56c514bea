/**
 * Token counts with a real tokenizer (o200k_base, gpt-tokenizer): the `pseudo`
 * engine's usage, the chunk planner's estimates. It is exact for OpenAI's current
 * models and an estimate for the others.
 */
import { clearMergeCache, countTokens as countO200kTokens, setMergeCacheSize } from 'gpt-tokenizer/encoding/o200k_base';

/**
 * BPE merging is super-linear in the length of one pre-token, so a 2 MiB run with no
 * whitespace would stall the process for minutes. Runs longer than this are counted in
 * slices of this length; for ordinary text (words are short) the count is unchanged.
 */
const LONGEST_RUN = 256;
const LONG_RUN = new RegExp(`\\S{${LONGEST_RUN + 1},}`, 'g');

/**
 * The tokenizer keeps each pre-token it has merged in a Map, and past its size evicts
 * the oldest entry one at a time, which on V8's Map gets slower the more entries have
 * been deleted: once text that never repeats (a base64 blob, random words) has filled
 * it, every later count pays for it, for every request. The Map only ever grows by
 * pre-tokens of the text counted, at most one per two characters (one-character ASCII
 * pre-tokens are not kept), so it is emptied whenever CACHE_CHARACTERS characters have
 * been counted since it was last emptied, and its own limit sits above what that lets
 * in: it never evicts, and never holds more than CACHE_CHARACTERS / 2 entries (a few
 * MiB). Common words are merged again after each emptying, a small cost next to the
 * merges of a quarter of a million characters.
 */
const CACHE_CHARACTERS = 262_144;
/** Text is counted in pieces of at most this many characters, so the budget above is checked often enough. */
const PIECE = 32_768;
setMergeCacheSize(CACHE_CHARACTERS);
let countedSinceClear = 0;

/** The tokenizer's count of `text[from, to)`, emptying its cache first when the budget is spent. */
function countPiece(text: string, from: number, to: number): number {
  let total = 0;
  while (from < to) {
    let end = Math.min(to, from + PIECE);
    // Cut only before a space that follows a non-space and precedes one: no o200k
    // pre-token holds such a space unless it starts with it, so the count is unchanged.
    if (end < to) {
      let cut = end;
      while (cut > from && !(text.charCodeAt(cut) === 32 && !isSpace(text.charCodeAt(cut - 1)) && !isSpace(text.charCodeAt(cut + 1)))) cut--;
      if (cut > from) end = cut;
    }
    if (countedSinceClear + (end - from) > CACHE_CHARACTERS) {
      clearMergeCache();
      countedSinceClear = 0;
    }
    countedSinceClear += end - from;
    total += countO200kTokens(from === 0 && end === text.length ? text : text.slice(from, end));
    from = end;
  }
  return total;
}

const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || Number.isNaN(c);

export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  let total = 0;
  let last = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    if (match.index > last) total += countPiece(text, last, match.index);
    for (let i = 0; i < match[0].length; i += LONGEST_RUN) {
      total += countPiece(match[0], i, Math.min(i + LONGEST_RUN, match[0].length));
    }
    last = match.index + match[0].length;
  }
  if (last < text.length) total += countPiece(text, last, text.length);
  return total;
}
