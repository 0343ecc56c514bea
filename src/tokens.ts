/**
 * Token counts with a real tokenizer (o200k_base, gpt-tokenizer): the `pseudo`
 * engine's usage, the chunk planner's estimates. It is exact for OpenAI's current
 * models and an estimate for the others. Its ranks are read from the package's
 * `.tiktoken` data rather than imported as its JavaScript module (tokenizer/o200k-ranks.ts),
 * and looked up in a compact table rather than its map (tokenizer/compact-ranks.ts): ~14 MB
 * less heap in every process and document worker.
 *
 * Untrusted text must not make counting slow or leave lasting weight behind:
 * - A run of more than LONGEST_RUN characters without whitespace (a base64 blob, a
 *   minified line) is not prose. Counting it exactly takes seconds for a large blob
 *   (docs/benchmarks.md, "Hostile documents"), so it is estimated as one token per UTF-16
 *   code unit: never below the real count of such text (base64 is ~0.7 a character), so
 *   the chunk planner stays within its budgets. Ordinary text (words are short) is
 *   counted exactly.
 * - The tokenizer caches merges per distinct word; unique words of hostile text would
 *   fill it (100,000 entries by default) and stay. It is held to MERGE_CACHE_ENTRIES words
 *   of at most 64 characters, each a copy rather than a slice of the text it came from
 *   (library-patches/gpt-tokenizer.ts says why).
 * - `countTokensYielding` gives the same count for ordinary text in slices, returning to
 *   the event loop between them, for the main thread (the pseudo engine).
 *
 * A Tokenizer holds its tables and merge cache for the life of its owner: one per process,
 * made by the composition root (services.ts) and passed to the engines and the
 * translation, and one per document worker thread, made by the worker's own entry point
 * (translation/document-worker.ts), which is that thread's composition root.
 */
import { Turns } from './event-loop/turns.js';
import { createO200kEncoder, type O200kEncoder } from './library-patches/gpt-tokenizer.js';
import { CompactRankTable } from './tokenizer/compact-ranks.js';
import { readO200kRanks } from './tokenizer/o200k-ranks.js';

/** Distinct words whose merges are remembered; ordinary vocabulary fits many times over. */
const MERGE_CACHE_ENTRIES = 20_000;

const LONGEST_RUN = 256;
const LONG_RUN = new RegExp(`\\S{${LONGEST_RUN + 1},}`, 'g');

/** Characters counted between two looks at the clock. */
const SLICE_CHARS = 16 * 1024;

export class Tokenizer {
  readonly #o200k: O200kEncoder;
  /** Whether the tokenizer looks ranks up in the compact table (false: gpt-tokenizer's own map). */
  readonly usesCompactRanks: boolean;
  /** Whether the merge cache keeps copies of short words, not slices of whole documents (false: gpt-tokenizer's own cache). */
  readonly boundsMergeCache: boolean;

  constructor() {
    this.#o200k = createO200kEncoder(readO200kRanks(), (ranks) => new CompactRankTable(ranks), MERGE_CACHE_ENTRIES);
    this.usesCompactRanks = this.#o200k.compactRanks;
    this.boundsMergeCache = this.#o200k.boundedMergeCache;
  }

  countTokens(text: string): number {
    if (text.length === 0) return 0;
    let total = 0;
    let last = 0;
    for (const match of text.matchAll(LONG_RUN)) {
      if (match.index > last) total += this.#o200k.countTokens(text.slice(last, match.index));
      total += match[0].length;
      last = match.index + match[0].length;
    }
    if (last < text.length) total += this.#o200k.countTokens(text.slice(last));
    return total;
  }

  /**
   * countTokens(text), counted in slices cut just before a single space or line break
   * between two non-space characters (where o200k's pre-tokenizer splits anyway, so the
   * count is the same), taking turns (event-loop/turns.ts).
   */
  async countTokensYielding(text: string): Promise<number> {
    if (text.length <= SLICE_CHARS) return this.countTokens(text);
    let total = 0;
    const turns = new Turns();
    for (let start = 0; start < text.length; ) {
      const end = sliceEnd(text, start);
      total += this.countTokens(text.slice(start, end));
      start = end;
      await turns.yieldIfLong();
    }
    return total;
  }

  /** Empties the merge cache; the ranks go with the tokenizer. */
  close(): void {
    this.#o200k.clearMergeCache();
  }
}

function sliceEnd(text: string, start: number): number {
  let end = start + SLICE_CHARS;
  if (end >= text.length) return text.length;
  // Walk forward to a safe cut: [non-space] | ' ' or '\n' [non-space]. A text with none
  // nearby (a long run, runs of blank lines) is cut where it is; its count may then differ
  // by a token or two at the cut.
  const limit = Math.min(text.length - 1, end + LONGEST_RUN * 4);
  for (let i = end; i < limit; i++) {
    if ((text[i] === ' ' || text[i] === '\n') && !/\s/.test(text[i - 1]!) && !/\s/.test(text[i + 1]!)) return i;
  }
  return end;
}
