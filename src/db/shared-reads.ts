/**
 * Reads by key that arrive together share one query (docs/decisions/0032, 0037): with
 * many requests in flight, each wanting a row or two, one `… in (…)` for the keys of the
 * requests that arrived during the previous reads costs the database one statement and
 * the process one round trip instead of one each.
 *
 * A read starts at once while fewer than `maxInFlight` are running, so an idle service
 * adds no wait; only when all are busy do new keys queue, and they go together in the
 * next read to start. Each caller gets what its key's row said at the time of the query
 * that read it, as with a query of its own.
 */
export interface SharedReadsOptions {
  /** Reads running at once before new keys queue (a few keep a PostgreSQL pool busy). */
  readonly maxInFlight: number;
  /** Keys in one read at most: bounds the statement's parameters (and SQLite's cached texts). */
  readonly maxBatch: number;
}

interface Waiter<V> {
  readonly resolve: (value: V | undefined) => void;
  readonly reject: (error: unknown) => void;
}

export class SharedReads<V> {
  private readonly queued = new Map<string, Waiter<V>[]>();
  private inFlight = 0;
  /** Reads run so far, for tests that check reads were shared. */
  queryCount = 0;

  constructor(
    private readonly read: (keys: string[]) => Promise<ReadonlyMap<string, V>>,
    private readonly options: SharedReadsOptions,
  ) {}

  /** The value stored under `key`, or undefined when there is none. */
  find(key: string): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const waiters = this.queued.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else this.queued.set(key, [{ resolve, reject }]);
      this.startReads();
    });
  }

  private startReads(): void {
    while (this.inFlight < this.options.maxInFlight && this.queued.size > 0) {
      const batch = new Map<string, Waiter<V>[]>();
      for (const [key, waiters] of this.queued) {
        batch.set(key, waiters);
        this.queued.delete(key);
        if (batch.size >= this.options.maxBatch) break;
      }
      this.inFlight += 1;
      this.queryCount += 1;
      this.read([...batch.keys()])
        .then(
          (found) => {
            for (const [key, waiters] of batch) for (const waiter of waiters) waiter.resolve(found.get(key));
          },
          (error: unknown) => {
            for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
          },
        )
        .finally(() => {
          this.inFlight -= 1;
          this.startReads();
        });
    }
  }
}
