/**
 * The compacted n-gram table held as numbers instead of as JavaScript objects
 * (docs/detection.md, "Memory"; decision 0049). As objects, its ~83,000 keys, their
 * dictionary and its ~14,500 score-set arrays were ~8.8 MB of heap in every process that
 * detects; here they are ~1.3 MB of typed arrays.
 *
 * eld reads the table in one place only, `languageData.ngrams[bytes]` (languageDetector.js
 * `calculateScores`), with `bytes` an n-gram of its own making: a space, up to four
 * characters and a space, each character a byte of the text's UTF-8 (0–255). So every
 * key eld can ask for fits in 51 bits (six bytes and a length) and is held as an exact
 * double in one sorted Float64Array; a property read is a binary search. A key that does
 * not fit (none in eld's tables) is kept in a Map, so the table never loses an n-gram.
 *
 * What a read returns is what eld walks (`for … in`, then `set[language]`): an array with
 * a score at each present language index and holes elsewhere. The sets are stored once
 * each as (language, score) pairs and made into arrays when read; the last SET_CACHE_SLOTS
 * made are kept (direct-mapped by set number), as a sentence reads the same common
 * n-grams' sets again and again.
 */
/** A score set: compact language index → score, holes where a language has none. */
export type CompactScores = readonly (number | undefined)[];
/** What eld reads: `table[ngram]`, the n-gram's score set or undefined (held here as numbers). */
export type NgramTable = Readonly<Record<string, CompactScores | undefined>>;

const MAX_PACKED_LENGTH = 6;
const LENGTH_UNIT = 2 ** 48;
const SET_CACHE_SLOTS = 1024;

/** The n-gram as one number (its bytes, then its length above them), or -1 when it does not fit. */
function packNgram(ngram: string): number {
  if (ngram.length > MAX_PACKED_LENGTH) return -1;
  let packed = 0;
  for (let i = 0; i < ngram.length; i++) {
    const code = ngram.charCodeAt(i);
    if (code > 0xff) return -1;
    packed = packed * 256 + code;
  }
  return packed + ngram.length * LENGTH_UNIT;
}

/** Score sets stored once each as (language, score) pairs; `read(n)` gives set n as eld walks it. */
class ScoreSets {
  readonly #starts: Uint32Array;
  readonly #languages: Uint8Array;
  readonly #scores: Float64Array;
  readonly #cachedNumber = new Int32Array(SET_CACHE_SLOTS).fill(-1);
  readonly #cachedSet: CompactScores[] = new Array(SET_CACHE_SLOTS);

  constructor(sets: readonly CompactScores[]) {
    let pairs = 0;
    for (const set of sets) for (const score of set) if (score !== undefined) pairs++;
    this.#starts = new Uint32Array(sets.length + 1);
    this.#languages = new Uint8Array(pairs);
    this.#scores = new Float64Array(pairs);
    let at = 0;
    sets.forEach((set, number) => {
      this.#starts[number] = at;
      set.forEach((score, language) => {
        if (score === undefined) return;
        if (language > 0xff) throw new RangeError(`language index ${language} does not fit in a byte`);
        this.#languages[at] = language;
        this.#scores[at++] = score;
      });
    });
    this.#starts[sets.length] = at;
  }

  read(number: number): CompactScores {
    const slot = number % SET_CACHE_SLOTS;
    if (this.#cachedNumber[slot] === number) return this.#cachedSet[slot]!;
    const start = this.#starts[number]!;
    const end = this.#starts[number + 1]!;
    // Pairs are stored in ascending language order, so the last is the highest index.
    const set: (number | undefined)[] = new Array(this.#languages[end - 1]! + 1);
    for (let at = start; at < end; at++) set[this.#languages[at]!] = this.#scores[at];
    this.#cachedNumber[slot] = number;
    this.#cachedSet[slot] = set;
    return set;
  }
}

/** Builds the table one n-gram at a time; an n-gram added twice keeps its last score set. */
export class PackedNgramsBuilder {
  readonly #keys: number[] = [];
  readonly #setOfKey: number[] = [];
  readonly #sets: CompactScores[] = [];
  readonly #setNumber = new Map<CompactScores, number>();
  readonly #unpacked = new Map<string, CompactScores>();

  /** Adds an n-gram; pass equal score sets as one object (compact-table.ts does) to store them once. */
  add(ngram: string, scores: CompactScores): void {
    const packed = packNgram(ngram);
    if (packed < 0) {
      this.#unpacked.set(ngram, scores);
      return;
    }
    if (!scores.some((score) => score !== undefined)) throw new RangeError(`n-gram ${JSON.stringify(ngram)} has no score`);
    let number = this.#setNumber.get(scores);
    if (number === undefined) {
      number = this.#sets.push(scores) - 1;
      this.#setNumber.set(scores, number);
    }
    this.#keys.push(packed);
    this.#setOfKey.push(number);
  }

  /** What the table is made of, in a form that can be written to a file and read back (lean-table.ts). */
  parts(): PackedNgramParts {
    const order = this.#keys.map((_, i) => i).sort((a, b) => this.#keys[a]! - this.#keys[b]! || a - b);
    // An n-gram added twice: the later one wins, as an object's assignment would.
    const kept = order.filter((at, i) => i + 1 === order.length || this.#keys[order[i + 1]!] !== this.#keys[at]);
    return {
      keys: kept.map((at) => this.#keys[at]!),
      setOfKey: kept.map((at) => this.#setOfKey[at]!),
      sets: [...this.#sets],
      unpacked: [...this.#unpacked],
    };
  }
}

/** A packed table's parts: sorted packed keys, each key's score set number, the sets, and the n-grams that do not pack. */
export interface PackedNgramParts {
  readonly keys: readonly number[];
  readonly setOfKey: readonly number[];
  readonly sets: readonly CompactScores[];
  readonly unpacked: ReadonlyArray<readonly [string, CompactScores]>;
}

/** The table of `parts` (PackedNgramsBuilder.parts()) as eld reads it. */
export function packedNgramTable(parts: PackedNgramParts): NgramTable {
  const keys = Float64Array.from(parts.keys);
  const setOfKey = parts.sets.length <= 0x10000 ? Uint16Array.from(parts.setOfKey) : Uint32Array.from(parts.setOfKey);
  // A function of its own, so the table's closures cannot keep the parts' arrays alive.
  return packedTable(keys, setOfKey, new ScoreSets(parts.sets), new Map(parts.unpacked));
}

function packedTable(
  keys: Float64Array,
  setOfKey: Uint16Array | Uint32Array,
  sets: ScoreSets,
  unpacked: ReadonlyMap<string, CompactScores>,
): NgramTable {
  const lookup = (ngram: string): CompactScores | undefined => {
    const packed = packNgram(ngram);
    if (packed < 0) return unpacked.get(ngram);
    let low = 0;
    let high = keys.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const key = keys[middle]!;
      if (key === packed) return sets.read(setOfKey[middle]!);
      if (key < packed) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  };
  return new Proxy(Object.create(null) as NgramTable, {
    get: (_, property) => (typeof property === 'string' ? lookup(property) : undefined),
    has: (_, property) => typeof property === 'string' && lookup(property) !== undefined,
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
}
