/**
 * Long loops on the main thread take turns with everything else the process serves. A
 * request with 200,000 segments into 10 targets does millions of small steps there
 * (memory keys, lookups, claims, answers); done in one go they held every other request —
 * a health check — for seconds (docs/event-loop.md). A loop asks `turns.due()` between
 * steps and, when it says so, awaits `turns.yield()`, which lets timers and I/O run
 * (setImmediate) before the loop goes on, and tells the HTTP room that long work holds the
 * loop (long-work.ts).
 */
import { yieldFromLongWork } from './long-work.js';

/**
 * How long one turn may hold the loop. Short enough that a health check waits a few of
 * them at most under a handful of large requests, long enough that yielding (a few
 * microseconds) is noise against the work done in between.
 */
export const TURN_MS = 8;
/** Steps between two looks at the clock: a step is far shorter than a turn. */
const STEPS_PER_LOOK = 64;

/** One bound clock for every Turns: a request makes several, and a bound function each was garbage. */
const monotonicNow: () => number = performance.now.bind(performance);

export class Turns {
  #started: number;
  #steps = 0;

  constructor(
    private readonly clock: () => number = monotonicNow,
    private readonly turnMs = TURN_MS,
  ) {
    this.#started = clock();
  }

  /** Whether this turn has lasted long enough; looks at the clock every STEPS_PER_LOOK calls. */
  due(): boolean {
    if (++this.#steps < STEPS_PER_LOOK) return false;
    this.#steps = 0;
    return this.clock() - this.#started >= this.turnMs;
  }

  /** Gives the event loop a turn, then starts a new one. */
  async yield(): Promise<void> {
    await yieldFromLongWork();
    this.#steps = 0;
    this.#started = this.clock();
  }

  /** A turn boundary whatever the count: for loops whose steps are large (a statement, a call's answers). */
  async yieldIfLong(): Promise<void> {
    if (this.clock() - this.#started >= this.turnMs) await this.yield();
  }
}
