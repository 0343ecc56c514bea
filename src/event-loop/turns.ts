/**
 * Long loops on the main thread take turns with everything else the process serves. A
 * request with 200,000 segments into 10 targets does millions of small steps there
 * (memory keys, lookups, claims, answers); done in one go they held every other request —
 * a health check — for seconds (docs/event-loop.md). A loop asks `turns.due()` between
 * steps and, when it says so, awaits `turns.yield()`, which lets timers and I/O run
 * before the loop goes on.
 *
 * The loops of one process share one budget a turn of the event loop (decision 0127): a
 * loop that yields waits in the process's `TurnQueue`, and each turn of the event loop
 * runs the waiting loops until TURN_MS of that turn is spent. When each loop had a budget
 * of its own, one turn ran every waiting loop's slice back to back — the memory keys, the
 * engine's answers, a target's rows — and a health check, which waits for three turns
 * (decision 0040), waited for all of them three times.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * How long the loops may hold one turn of the event loop between them. Short enough that a
 * health check's three turns stay well inside the 100 ms bound, long enough that yielding
 * (a few microseconds) is noise against the work done in between.
 */
export const TURN_MS = 8;
/** Steps between two looks at the clock: a step is far shorter than a turn. */
const STEPS_PER_LOOK = 64;

/** One bound clock for every Turns: a request makes several, and a bound function each was garbage. */
const monotonicNow: () => number = performance.now.bind(performance);

/**
 * The process's loops waiting for a turn of the event loop, made once by the composition
 * root. Each turn it wakes the waiting loops in order; those that wait after a slice of
 * their own go behind those that got none (a loop woken after the budget was spent gives
 * the turn back at its first look at the clock), so every loop gets its slices in rotation.
 */
export class TurnQueue {
  #starved: (() => void)[] = [];
  #served: (() => void)[] = [];
  #scheduled = false;
  #turnStarted = -Infinity;
  #closed = false;

  constructor(
    readonly clock: () => number = monotonicNow,
    readonly turnMs = TURN_MS,
  ) {}

  /** A loop's own view of the shared budget. */
  turns(): Turns {
    return new Turns(this);
  }

  /** When the current turn's loops began: a woken loop's slice is counted from here. */
  get turnStarted(): number {
    return this.#turnStarted;
  }

  /** Resolves in a later turn of the event loop, once the loops ahead of this one had theirs. */
  wait(hadSlice: boolean): Promise<void> {
    // Closed (the process is stopping): plain turns, so nothing is left waiting on a queue nobody runs.
    if (this.#closed) return nextTurn();
    return new Promise((resume) => {
      (hadSlice ? this.#served : this.#starved).push(resume);
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(this.#runTurn);
      }
    });
  }

  readonly #runTurn = (): void => {
    this.#scheduled = false;
    this.#turnStarted = this.clock();
    const waiting = this.#starved;
    for (const resume of this.#served) waiting.push(resume);
    this.#starved = [];
    this.#served = [];
    // Each woken loop runs as a microtask of this callback, in this order, before the next
    // callback of the event loop; those that yield again wait for the next turn.
    for (const resume of waiting) resume();
  };

  /** Whether close() was called: loops then take plain turns, each its own budget. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Wakes every waiting loop and leaves later ones plain turns. */
  close(): void {
    this.#closed = true;
    this.#runTurn();
  }
}

export class Turns {
  /** Where this loop's current slice is counted from: the turn's start once woken by the queue. */
  #started: number;
  #steps = 0;
  /** Looks at the clock since this loop was last woken: a loop that yields at its first had no slice of its own. */
  #looks = 0;

  constructor(private readonly queue: TurnQueue) {
    this.#started = queue.clock();
  }

  /** Whether this turn has lasted long enough; looks at the clock every STEPS_PER_LOOK calls. */
  due(): boolean {
    if (++this.#steps < STEPS_PER_LOOK) return false;
    this.#steps = 0;
    return this.#over();
  }

  /** Gives the event loop a turn, then goes on within the budget of the turn it is woken in. */
  async yield(): Promise<void> {
    const { queue } = this;
    // Woken after the other loops had spent the turn, a loop gives it back at its first look:
    // it waits ahead of those that had a slice.
    await queue.wait(this.#looks > 1);
    this.#steps = 0;
    this.#looks = 0;
    this.#started = queue.closed ? queue.clock() : queue.turnStarted;
  }

  /** A turn boundary whatever the count: for loops whose steps are large (a statement, a call's answers). */
  async yieldIfLong(): Promise<void> {
    if (this.#over()) await this.yield();
  }

  #over(): boolean {
    this.#looks++;
    return this.queue.clock() - this.#started >= this.queue.turnMs;
  }
}
