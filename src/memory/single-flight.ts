/**
 * Identical segments requested at the same time are translated once — within one
 * process (docs/decisions/0017-translation-memory.md): the first request to need a key
 * leads and sends it to a model; a request needing the same key meanwhile follows and
 * waits for the leader's validated answer instead of paying for its own. Across
 * processes the table is the only sharing, so two API instances may both pay once.
 *
 * A leader that fails settles with undefined; its followers then translate the key
 * themselves (they may lead for it now).
 */
import { SpreadMap } from '../event-loop/spread-map.js';

export type Claim =
  | { readonly leader: true; settle(translation: string | undefined): void }
  | { readonly leader: false; readonly result: Promise<string | undefined> };

export class SingleFlight {
  /** Spread over many maps: a request of 2,000,000 keys must not rehash them in one claim. */
  private readonly inFlight = new SpreadMap<Promise<string | undefined>>();

  /** Leads `key` if nobody does, else follows its leader. A leader must settle exactly once. */
  claim(key: string): Claim {
    const running = this.inFlight.get(key);
    if (running) return { leader: false, result: running };
    let resolve!: (translation: string | undefined) => void;
    const result = new Promise<string | undefined>((done) => {
      resolve = done;
    });
    this.inFlight.set(key, result);
    let settled = false;
    return {
      leader: true,
      settle: (translation) => {
        if (settled) return;
        settled = true;
        this.inFlight.delete(key);
        resolve(translation);
      },
    };
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
