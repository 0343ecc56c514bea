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
