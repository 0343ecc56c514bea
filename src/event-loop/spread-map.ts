/**
 * A map from string keys spread over many V8 Maps. A Map grows (and shrinks) by rehashing
 * every entry in one step, which no `Turns` can slice: a map of the 2,000,000 keys of
 * 200,000 segments into 10 targets rehashed about a million entries inside one `set`
 * (docs/benchmarks.md, "The log drained by its worker"). Spread over
 * 256, one rehash moves a few thousand. For maps that may hold a key per (target, segment)
 * pair; a small map is better as a plain Map.
 */
const SPREAD = 256;

/** Which map from the key's last characters: the end of a SHA-256 in hex for memory keys; any string works. */
function spreadOf(key: string): number {
  const n = key.length;
  return ((key.charCodeAt(n - 1) * 31 + key.charCodeAt(n - 2)) * 31 + key.charCodeAt(n - 3)) & (SPREAD - 1);
}

export class SpreadMap<V> {
  private readonly maps: (Map<string, V> | undefined)[] = new Array(SPREAD);
  private count = 0;

  get(key: string): V | undefined {
    return this.maps[spreadOf(key)]?.get(key);
  }

  set(key: string, value: V): this {
    const map = (this.maps[spreadOf(key)] ??= new Map());
    const before = map.size;
    map.set(key, value);
    this.count += map.size - before;
    return this;
  }

  delete(key: string): boolean {
    const deleted = this.maps[spreadOf(key)]?.delete(key) ?? false;
    if (deleted) this.count--;
    return deleted;
  }

  get size(): number {
    return this.count;
  }

  /** Entries in the fullest of the maps: what one rehash may move (tests). */
  get largestPart(): number {
    let largest = 0;
    for (const map of this.maps) if (map && map.size > largest) largest = map.size;
    return largest;
  }
}
