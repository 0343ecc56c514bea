/**
 * o200k's text → rank lookup in ~6 MB instead of ~15 (docs/decisions/0047).
 *
 * gpt-tokenizer keeps a `Map` from each token's text to its rank (~7 MB for 198,000
 * tokens, plus the 198,000 strings it holds as keys, ~6 MB) and its array of ranks for
 * decoding (~2 MB), in every process and every document worker. Counting only ever asks
 * the map `get(text)` (the whole piece, then each candidate pair while merging, as text),
 * and never decodes. This table answers the same `get` from typed arrays: every token's
 * UTF-16 code units in one array, where each starts, its rank, and an open-addressed index
 * of FNV-1a hashes (load under 0.4, so a miss, the common case while merging, ends within
 * a probe or two).
 *
 * It is put in place of the map inside gpt-tokenizer's encoder by
 * library-patches/gpt-tokenizer.ts, the one room that reaches into the library.
 */
import type { RankedToken } from './o200k-ranks.js';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export class CompactRankTable {
  /** Every text token's UTF-16 code units, one after another, in rank order. */
  private readonly units: Uint16Array;
  /** Entry i's units are units[starts[i]] up to units[starts[i + 1]]. */
  private readonly starts: Uint32Array;
  private readonly ranks: Uint32Array;
  /** Open addressing: entry index + 1, or 0 for an empty slot. */
  private readonly slots: Uint32Array;
  private readonly mask: number;
  readonly size: number;

  constructor(tokens: readonly RankedToken[]) {
    let size = 0;
    let unitCount = 0;
    tokens.forEach((token) => {
      if (typeof token !== 'string') return;
      size++;
      unitCount += token.length;
    });
    this.size = size;
    this.units = new Uint16Array(unitCount);
    this.starts = new Uint32Array(size + 1);
    this.ranks = new Uint32Array(size);
    let capacity = 1;
    while (capacity < size * 2.5) capacity *= 2;
    this.slots = new Uint32Array(capacity);
    this.mask = capacity - 1;
    let entry = 0;
    let at = 0;
    tokens.forEach((token, rank) => {
      if (typeof token !== 'string') return;
      for (let i = 0; i < token.length; i++) this.units[at + i] = token.charCodeAt(i);
      this.starts[entry] = at;
      this.ranks[entry] = rank;
      at += token.length;
      this.slots[this.emptySlotFor(token)] = entry + 1;
      entry++;
    });
    this.starts[entry] = at;
  }

  /** The rank of the token whose text is `key`, as gpt-tokenizer's map answers it. */
  get(key: string): number | undefined {
    const entry = this.find(key);
    return entry === undefined ? undefined : this.ranks[entry];
  }

  private find(key: string): number | undefined {
    const length = key.length;
    for (let slot = hashOf(key) & this.mask; ; slot = (slot + 1) & this.mask) {
      const stored = this.slots[slot]!;
      if (stored === 0) return undefined;
      const start = this.starts[stored - 1]!;
      if (this.starts[stored]! - start === length && this.unitsEqual(key, start)) return stored - 1;
    }
  }

  private emptySlotFor(key: string): number {
    let slot = hashOf(key) & this.mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
    return slot;
  }

  private unitsEqual(key: string, start: number): boolean {
    for (let i = 0; i < key.length; i++) if (this.units[start + i] !== key.charCodeAt(i)) return false;
    return true;
  }
}

function hashOf(key: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), FNV_PRIME);
  return hash >>> 0;
}
