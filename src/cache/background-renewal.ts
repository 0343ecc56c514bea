/**
 * Cached rows read again while they keep answering (docs/decisions/0048): a cache marks
 * an entry past its life and hands its key here; keys handed over within DELAY_MS go in
 * one read (in statements of up to `maxBatch` keys), and each key's result goes back to
 * the cache. Nobody waits for these reads, so they wait for company: renewals come a few
 * at a time, and a statement each cost more CPU than the reads it renewed saved
 * (docs/benchmarks.md, issue 18), with a promise chain per key that outlived young
 * collections while it waited.
 */
export const DELAY_MS = 100;

export interface Renewer<V> {
  /** Reads `keys` (at most maxBatch): the rows found, by key. */
  read(keys: string[]): Promise<ReadonlyMap<string, V>>;
  /** What the read found for `key` (undefined: no row any more). */
  renewed(key: string, value: V | undefined): void;
  /** The read of `key` failed: the cache should read it for itself next time. */
  failed(key: string): void;
}

export class BackgroundRenewal<V> {
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  /** Statements run so far, for tests. */
  readCount = 0;

  constructor(
    private readonly renewer: Renewer<V>,
    private readonly maxBatch: number,
  ) {}

  /** Reads `key` again within DELAY_MS, with the others handed over meanwhile. */
  add(key: string): void {
    this.pending.add(key);
    this.timer ??= setTimeout(() => void this.readPending(), DELAY_MS);
  }

  /** Drops the keys not read yet (their entries are read again by a request instead). */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const key of this.pending) this.renewer.failed(key);
    this.pending.clear();
  }

  private async readPending(): Promise<void> {
    this.timer = undefined;
    const keys = [...this.pending];
    this.pending.clear();
    for (let start = 0; start < keys.length; start += this.maxBatch) {
      const batch = keys.slice(start, start + this.maxBatch);
      let found: ReadonlyMap<string, V>;
      try {
        this.readCount += 1;
        found = await this.renewer.read(batch);
      } catch {
        for (const key of batch) this.renewer.failed(key);
        continue;
      }
      for (const key of batch) this.renewer.renewed(key, found.get(key));
    }
  }
}
