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
 * 200,000 segments into 10 targets, while followers are rare. So a lead is one small
 * object, and the promise followers wait on is made only when the first one asks
 * (decision 0118): a promise, its resolver and a settle closure per key were the largest
 * part of that request's heap, whose collections held the event loop.
 */
import { SpreadMap } from '../event-loop/spread-map.js';

export type Claim = Lead | { readonly leader: false; readonly result: Promise<string | undefined> };

/** A key this process is translating, held by the request that leads it. */
export class Lead {
  #result: Promise<string | undefined> | undefined;
  #resolve: ((translation: string | undefined) => void) | undefined;
  #settled = false;

  constructor(
    private readonly flights: SpreadMap<Lead>,
    private readonly key: string,
  ) {}

  get leader(): true {
    return true;
  }

  /** What a follower waits for: made when the first follower asks. */
  get result(): Promise<string | undefined> {
    this.#result ??= new Promise<string | undefined>((resolve) => {
      this.#resolve = resolve;
    });
    return this.#result;
  }

  /** The leader's answer (undefined when it failed); once, later calls do nothing. */
  settle(translation: string | undefined): void {
    if (this.#settled) return;
    this.#settled = true;
    this.flights.delete(this.key);
    this.#resolve?.(translation);
  }
}

export class SingleFlight {
  /** Spread over many maps: a request of 2,000,000 keys must not rehash them in one claim. */
  private readonly inFlight = new SpreadMap<Lead>();

  /** Leads `key` if nobody does, else follows its leader. A leader must settle exactly once. */
  claim(key: string): Claim {
    const running = this.inFlight.get(key);
    if (running) return { leader: false, result: running.result };
    const lead = new Lead(this.inFlight, key);
    this.inFlight.set(key, lead);
    return lead;
  }

  /** Keys being translated now (tests and logs). */
  get size(): number {
    return this.inFlight.size;
  }

  /** Keys in the fullest of the maps they are spread over: what one rehash may move (tests). */
  get largestShard(): number {
    return this.inFlight.largestPart;
  }
}
