/**
 * A (target, unique segment) pair of a piece of work, by index, as one small integer rather
 * than an object: 200,000 segments into 10 targets are 2,000,000 pairs, made in the
 * request's first second and held to its end, and an object each was some 40 MB of its
 * heap (docs/benchmarks.md, "The 200,000 × 10 shape's heap"). An array of them holds small
 * integers unboxed.
 */
export type Pair = number;

/** Room for the target index: a request has at most 36 targets (docs/contract.md §3.1). */
const TARGET_BITS = 6;
const TARGET_MASK = (1 << TARGET_BITS) - 1;

/** `unique` below 2^24 keeps a pair a small integer; a 2 MiB body holds far fewer segments. */
export function pairOf(target: number, unique: number): Pair {
  return unique * (TARGET_MASK + 1) + target;
}

export function targetOf(pair: Pair): number {
  return pair & TARGET_MASK;
}

export function uniqueOf(pair: Pair): number {
  return pair >>> TARGET_BITS;
}

/** Pairs to read in order: an array, or a typed array for a long list (PairBuffer). */
export type PairList = ArrayLike<Pair> & Iterable<Pair>;

/**
 * Lists at least this long are typed arrays. A JS array of a request's pairs (2,000,000 for
 * 200,000 segments into 10 targets) is allocated, or grown by a push, in one step that
 * writes its whole backing store: tens of milliseconds of the main thread, one step, so no
 * turn between (docs/event-loop.md). A typed array's memory is touched as the loop filling
 * it goes, taking turns. A short list stays an array, which is cheaper to make.
 */
const TYPED_FROM = 4_096;

/** Collects at most `capacity` pairs, in order. */
export class PairBuffer {
  readonly #pairs: Pair[] | Int32Array;
  #length = 0;

  constructor(capacity: number) {
    this.#pairs = capacity >= TYPED_FROM ? new Int32Array(capacity) : [];
  }

  push(pair: Pair): void {
    this.#pairs[this.#length++] = pair;
  }

  get length(): number {
    return this.#length;
  }

  /** The pairs pushed (a view of the typed array: no copy). */
  list(): PairList {
    const pairs = this.#pairs;
    return Array.isArray(pairs) ? pairs : pairs.subarray(0, this.#length);
  }
}
