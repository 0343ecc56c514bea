/**
 * Identical segments requested at the same time are translated once — within one
 * process (docs/decisions/0017-translation-memory.md): the first request to need a key
 * leads and sends it to a model; a request needing the same key meanwhile follows and
 * waits for the leader's validated answer instead of paying for its own. Across
 * processes the table is the only sharing, so two API instances may both pay once.
 *
 * A leader that fails settles with undefined; its followers then translate the key
 * themselves (they may lead for it now).
 *
 * A request leads every key it needs that nobody else is translating: 2,000,000 for
 * 200,000 segments into 10 targets, while followers are rare. So the table holds, for
 * each key, the leading request's one `Flight` (no object per key), under its user's own
 * table (no user id joined to each key), and the promise followers wait on is made only
 * when the first one asks (decisions 0118, 0125): per-key objects and strings were most of
 * that request's heap, whose collections held the event loop.
 */
import { SpreadMap } from '../event-loop/spread-map.js';

/** A follower's wait: what the leader settles the key with. */
interface Waiting {
  readonly result: Promise<string | undefined>;
  readonly resolve: (translation: string | undefined) => void;
}

/**
 * The keys one request leads, and its claims on keys other requests lead. `claim` answers
 * `true` when this flight leads the key now — it must then `settle` it, with the answer or
 * with undefined — and otherwise the leader's result to wait for.
 */
export class Flight {
  /** Followers' waits, by key: made when the first follower of a key asks. */
  #waiting: Map<string, Waiting> | undefined;

  constructor(
    private readonly table: SingleFlight,
    private readonly userId: string,
  ) {}

  claim(key: string): true | Promise<string | undefined> {
    const keys = this.table.keysOf(this.userId, true);
    const leader = keys.get(key);
    if (leader) return leader.#resultOf(key);
    keys.set(key, this);
    return true;
  }

  /** The answer to a key this flight leads (undefined when it failed): once; a key it does not lead (settled already, or led by another) is left alone. */
  settle(key: string, translation: string | undefined): void {
    const keys = this.table.keysOf(this.userId, false);
    if (keys?.get(key) !== this) return;
    keys.delete(key);
    if (keys.size === 0) this.table.forget(this.userId);
    const waiting = this.#waiting?.get(key);
    if (waiting === undefined) return;
    this.#waiting!.delete(key);
    waiting.resolve(translation);
  }

  #resultOf(key: string): Promise<string | undefined> {
    this.#waiting ??= new Map();
    let waiting = this.#waiting.get(key);
    if (waiting === undefined) {
      let resolve!: Waiting['resolve'];
      const result = new Promise<string | undefined>((done) => (resolve = done));
      this.#waiting.set(key, (waiting = { result, resolve }));
    }
    return waiting.result;
  }
}

export class SingleFlight {
  /**
   * Per user, the keys in flight and the flight leading each. Spread over many maps: a
   * request of 2,000,000 keys must not rehash them in one claim. A user's table goes when
   * its last key is settled.
   */
  readonly #byUser = new Map<string, SpreadMap<Flight>>();

  /** What one request of `userId` leads and follows. */
  flight(userId: string): Flight {
    return new Flight(this, userId);
  }

  /** The user's keys in flight; made when `create`. For flights. */
  keysOf(userId: string, create: true): SpreadMap<Flight>;
  keysOf(userId: string, create: false): SpreadMap<Flight> | undefined;
  keysOf(userId: string, create: boolean): SpreadMap<Flight> | undefined {
    let keys = this.#byUser.get(userId);
    if (keys === undefined && create) this.#byUser.set(userId, (keys = new SpreadMap()));
    return keys;
  }

  /** Drops a user's table once it is empty. For flights. */
  forget(userId: string): void {
    this.#byUser.delete(userId);
  }

  /** Keys being translated now, all users (tests and logs). */
  get size(): number {
    let size = 0;
    for (const keys of this.#byUser.values()) size += keys.size;
    return size;
  }

  /** Keys in the fullest of the maps they are spread over: what one rehash may move (tests). */
  get largestShard(): number {
    let largest = 0;
    for (const keys of this.#byUser.values()) largest = Math.max(largest, keys.largestPart);
    return largest;
  }
}
