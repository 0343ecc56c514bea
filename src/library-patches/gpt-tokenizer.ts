/**
 * What the tokenizer (tokens.ts) changes inside gpt-tokenizer's o200k encoder, written for
 * gpt-tokenizer 4.0. Each change reaches a private field of its BytePairEncodingCore; when a
 * release moves the field the change is not made, the encoder keeps its own (counts stay
 * right, only memory is lost) and test/library-patches/gpt-tokenizer.test.ts fails, naming
 * the version, so the upgrade is noticed.
 *
 * - The ranks: its text → rank `Map` (~13 MB with its keys) is replaced by a compact table
 *   (tokenizer/compact-ranks.ts) and its decoding array dropped: this service never decodes
 *   (docs/decisions/0047).
 * - The merge cache: it keeps each word it merged as its key, and that word is a slice of
 *   the text being counted — in V8 a slice longer than a few characters keeps the whole
 *   text alive. So each of its entries could hold a whole document (up to 2 MiB) for as
 *   long as the word stays cached, which under a stream of distinct documents was much of
 *   the service's memory after a hostile run (docs/deployment.md, "Memory accounting").
 *   Here it keeps a copy of the word, and no word longer than MAX_CACHED_WORD characters.
 *   It is also emptied whole when full instead of evicting its oldest word as the library
 *   does, which on a V8 Map cost seconds for a document of many distinct words (below).
 *
 * The encoder is made from the ranks given (GptEncoding, which the package exports under
 * `gpt-tokenizer/esm/*` but does not document), so the ranks are read as data
 * (tokenizer/o200k-ranks.ts) rather than imported as the package's JavaScript tables.
 */
import { GptEncoding } from 'gpt-tokenizer/esm/GptEncoding';

/** One rank's token: its text, or its bytes when they are not text on their own. */
export type RankedToken = string | number[];

/** What stands in for the encoder's text → rank map: only `get` is asked, and `size` is compared. */
export interface RankLookup {
  readonly size: number;
  get(text: string): number | undefined;
}

/** Longer words are merged again each time; hostile text is made of long unique words. */
export const MAX_CACHED_WORD = 64;

export interface O200kEncoder {
  countTokens(text: string): number;
  clearMergeCache(): void;
  /** Whether the encoder looks ranks up in the compact table (false: its own map). */
  readonly compactRanks: boolean;
  /** Whether the merge cache keeps copies of short words only (false: gpt-tokenizer's own). */
  readonly boundedMergeCache: boolean;
}

/** The part of gpt-tokenizer 4's encoder these changes reach into. */
interface EncoderInternals {
  bytePairEncodingCoreProcessor?: {
    bytePairStringRankEncoder?: unknown;
    bytePairRankDecoder?: unknown;
    mergeCache?: unknown;
  };
}

/**
 * An o200k encoder over `ranks`, with a merge cache of `mergeCacheEntries` words and, where
 * the internals are where gpt-tokenizer 4 keeps them, the compact table `compact(ranks)`.
 */
export function createO200kEncoder(ranks: readonly RankedToken[], compact: (ranks: readonly RankedToken[]) => RankLookup, mergeCacheEntries: number): O200kEncoder {
  const encoding = encodingOver(ranks);
  encoding.setMergeCacheSize(mergeCacheEntries);
  const compactRanks = useCompactRanks(encoding, compact(ranks));
  return encoderOf(encoding, compactRanks, boundMergeCache(encoding, mergeCacheEntries));
}

// Functions of their own, so that the encoder's closure does not share a scope with
// `ranks` and keep its 200,000 strings alive after the encoder has made its tables.
function encodingOver(ranks: readonly RankedToken[]): GptEncoding {
  return GptEncoding.getEncodingApi('o200k_base', () => ranks as RankedToken[]);
}

function encoderOf(encoding: GptEncoding, compactRanks: boolean, boundedMergeCache: boolean): O200kEncoder {
  return { countTokens: (text) => encoding.countTokens(text), clearMergeCache: () => encoding.clearMergeCache(), compactRanks, boundedMergeCache };
}

/**
 * Puts `table` in place of `encoding`'s own text → rank map and lets go of its decoding
 * array. False when the encoder no longer has the map where gpt-tokenizer 4 keeps it, or
 * the table's size differs from the map's (nothing changed then).
 */
export function useCompactRanks(encoding: object, table: RankLookup): boolean {
  const core = (encoding as EncoderInternals).bytePairEncodingCoreProcessor;
  const map = core?.bytePairStringRankEncoder;
  if (!core || !(map instanceof Map)) return false;
  // A text given two ranks would be one entry of the map (the last rank) and two in the table.
  if (table.size !== map.size) return false;
  core.bytePairStringRankEncoder = table;
  core.bytePairRankDecoder = [];
  return true;
}

/**
 * gpt-tokenizer's merge cache, keeping a copy of each short word and no long one, and
 * emptied whole when full. The library keeps its Map in least-recently-used order — a hit
 * deletes its word and sets it again, a full cache deletes `keys().next()` — and on a V8
 * Map whose first entries were deleted that first key is found by walking every deleted
 * slot since the table was last rebuilt: counting a document of 100,000 distinct keys spent
 * seconds there, on the main thread. Emptied before the library's own bound is reached,
 * the cache never has the library evict; a hit keeps its word where it is (order means
 * nothing here), so it costs no copy either. A common word emptied out is merged again once.
 */
class CopiedWordCache<V> extends Map<string, V> {
  readonly #entries: number;

  constructor(entries: number) {
    super();
    this.#entries = entries;
  }

  override set(word: string, value: V): this {
    if (word.length > MAX_CACHED_WORD || super.has(word)) return this;
    if (this.size >= this.#entries - 1) this.clear();
    // A concatenation is flattened into a string of its own when it is sliced: the copy
    // holds only the word, not the text the word was cut from.
    return super.set(` ${word}`.slice(1), value);
  }

  /** The library deletes a word only to move it to the end, or to evict it: neither is needed here. */
  override delete(_word: string): boolean {
    return true;
  }
}

/**
 * Replaces the encoder's merge cache (a Map) with a CopiedWordCache of `entries` words;
 * false when it is not where gpt-tokenizer 4 keeps it.
 */
export function boundMergeCache(encoding: object, entries: number): boolean {
  const core = (encoding as EncoderInternals).bytePairEncodingCoreProcessor;
  if (!core || !(core.mergeCache instanceof Map) || core.mergeCache instanceof CopiedWordCache) return core?.mergeCache instanceof CopiedWordCache;
  core.mergeCache = new CopiedWordCache(entries);
  return true;
}
