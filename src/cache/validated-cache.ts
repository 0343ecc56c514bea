/**
 * The one cache of rows read from the database that other processes may change
 * (docs/caches.md): the key lookups (accounts/key-cache.ts) and the recent translation-
 * memory entries (memory/translation-memory.ts) are two configurations of it.
 *
 * A value is served while the change feed (change-feed.ts) has heard nothing since the
 * read that gave it began, and:
 * - while the feed is heard: up to its life, drawn between half of `heardLifeMs` and all
 *   of it (`spreadLife`); past its life and within twice it, it still answers while it
 *   is read again in the background (background-renewal.ts: a request never waits for a
 *   renewal, decision 0048); past twice its life it is read before answering;
 * - while the feed is not heard (the LISTEN connection down, a failed poll): up to
 *   `unheardLifeMs`, the bound on how late another process's change may take effect.
 *
 * Bounded by lru-cache: at most `max` values (and `maxSize` by `sizeOf`, when given),
 * least recently used out. Ages come from the process's clock (deps.clock): an age below
 * zero (the clock stepped back) counts as expired.
 */
import { LRUCache } from 'lru-cache';
import { BackgroundRenewal } from './background-renewal.js';
import type { ChangeFeed } from './change-feed.js';

export interface ValidatedCacheOptions<V extends {}> {
  readonly feed: ChangeFeed;
  readonly clock: () => number;
  /** The longest life of a value while the feed is heard and silent: only a net for a change that went unheard. */
  readonly heardLifeMs: number;
  /** The life of a value while the feed is not heard. */
  readonly unheardLifeMs: number;
  readonly max: number;
  /** With `sizeOf`: the most all values may weigh together. */
  readonly maxSize?: number;
  readonly sizeOf?: (value: V, key: string) => number;
  /** Reads values past their life again (at most `renewBatch` keys at once): what is found, by key. */
  readonly renew: (keys: string[]) => Promise<ReadonlyMap<string, V>>;
  readonly renewBatch: number;
}

/** When a read began: what `set` dates its value by. */
export interface ReadStart {
  readonly generation: number;
  readonly at: number;
}

interface Kept<V> extends ReadStart {
  readonly value: V;
  /** How long it is served while the feed is heard and silent. */
  readonly lifeMs: number;
}

/**
 * A value's life drawn between half of `longestMs` and all of it (decision 0048): values
 * read together — the first requests after a start, a refill after a change — would
 * otherwise expire together and be read again together, a wave that holds requests up;
 * drawn at random, their next reads spread over half the life and stay spread.
 */
function spreadLife(longestMs: number): number {
  return longestMs * (0.5 + Math.random() / 2);
}

export class ValidatedCache<V extends {}> {
  private readonly entries: LRUCache<string, Kept<V>>;
  /** Values being read again: the marked entry of each key (see `renew`). */
  private readonly marked = new Map<string, Kept<V>>();
  private readonly renewal: BackgroundRenewal<V>;

  constructor(private readonly options: ValidatedCacheOptions<V>) {
    const { sizeOf, maxSize } = options;
    this.entries = new LRUCache<string, Kept<V>>(
      sizeOf && maxSize ? { max: options.max, maxSize, sizeCalculation: (kept, key) => sizeOf(kept.value, key) } : { max: options.max },
    );
    this.renewal = new BackgroundRenewal<V>(
      {
        read: options.renew,
        renewed: (key, value) => this.renewed(key, value),
        failed: (key) => this.renewed(key, undefined),
      },
      options.renewBatch,
    );
  }

  /** Taken before a read whose value will be kept: a change heard after it makes the value stale. */
  readStart(): ReadStart {
    return { generation: this.options.feed.generation, at: this.options.clock() };
  }

  /** The value kept for `key`, if it may be served (see above); an entry past its life is renewed meanwhile. */
  get(key: string): V | undefined {
    const kept = this.entries.get(key);
    if (kept === undefined) return undefined;
    const { feed } = this.options;
    const age = this.options.clock() - kept.at;
    if (kept.generation === feed.generation && age >= 0) {
      if (!feed.watching) {
        if (age < this.options.unheardLifeMs) return kept.value;
      } else if (age < kept.lifeMs) {
        return kept.value;
      } else if (age < 2 * kept.lifeMs) {
        this.renew(key, kept);
        return kept.value;
      }
    }
    this.entries.delete(key);
    return undefined;
  }

  /** Keeps `value` for `key`, as read by a read that began at `start`. */
  set(key: string, value: V, start: ReadStart): void {
    this.entries.set(key, { value, generation: start.generation, at: start.at, lifeMs: spreadLife(this.options.heardLifeMs) });
  }

  /** Drops every value whose key passes `test`. */
  deleteWhere(test: (key: string) => boolean): void {
    for (const key of [...this.entries.keys()]) if (test(key)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  /** Renewal reads run so far, for tests. */
  get renewalCount(): number {
    return this.renewal.readCount;
  }

  /** Stops renewing and drops every value. */
  close(): void {
    this.renewal.close();
    this.entries.clear();
    this.marked.clear();
  }

  /**
   * Reads `key` again while it keeps answering: marked as read now, so one read renews it,
   * and replaced by what the read finds — dropped if the row is gone or the read failed,
   * so the next request reads for itself. If a change is heard meanwhile, the marked entry
   * is stale by its generation and the renewal's answer is not kept.
   */
  private renew(key: string, stale: Kept<V>): void {
    const marked: Kept<V> = { value: stale.value, generation: stale.generation, at: this.options.clock(), lifeMs: stale.lifeMs };
    this.entries.set(key, marked);
    this.marked.set(key, marked);
    this.renewal.add(key);
  }

  private renewed(key: string, value: V | undefined): void {
    const marked = this.marked.get(key);
    this.marked.delete(key);
    if (marked === undefined || this.entries.peek(key) !== marked) return;
    // Dated as the mark: the read began after it, so nothing is trusted longer than it should be.
    if (value === undefined) this.entries.delete(key);
    else this.set(key, value, marked);
  }
}
