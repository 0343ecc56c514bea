/**
 * One concurrency cap per provider for the whole process (config.engineConcurrency):
 * every engine, request and job that talks to the same provider shares it (ProviderLimits,
 * made in services.ts), so a burst
 * of jobs cannot open more connections than the provider's rate limit tolerates.
 * The slot is held for one HTTP attempt only, not during backoff sleeps.
 *
 * Slots are shared fairly between callers (one caller per request, batch or job), not
 * first come first served by call: a free slot goes to the waiting caller that holds
 * the fewest slots, of those the one served longest ago (a round-robin), and within one
 * caller to its oldest call.
 * A request that fans out into 36 calls therefore takes its turn with a one-call request
 * that arrives after it, instead of making it wait for all 36
 * (docs/decisions/0012-latency-planned-model-calls.md).
 */
import type { ProviderName } from './model-client.js';

interface Waiter {
  readonly start: () => void;
  readonly caller: object;
}

export class FairLimiter {
  private running = 0;
  /** Callers with waiting calls, each with its calls in arrival order. */
  private readonly waiting = new Map<object, Waiter[]>();
  /** Slots each caller holds now. */
  private readonly holding = new WeakMap<object, number>();
  /** When each caller last got a slot (a counter, not a clock). */
  private readonly servedAt = new WeakMap<object, number>();
  private served = 0;

  constructor(public concurrency: number) {}

  /** Calls holding a slot now. */
  get active(): number {
    return this.running;
  }

  /** Calls waiting for a slot now. */
  get pending(): number {
    let count = 0;
    for (const queue of this.waiting.values()) count += queue.length;
    return count;
  }

  /**
   * Runs `task` when a slot is free for `caller`. An abort while waiting rejects at once
   * and gives up the place in the queue; an abort while running is the task's business.
   */
  run<T>(caller: object, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    return new Promise<T>((resolve, reject) => {
      const start = (): void => {
        this.running++;
        this.holding.set(caller, (this.holding.get(caller) ?? 0) + 1);
        this.servedAt.set(caller, ++this.served);
        signal?.removeEventListener('abort', onAbort);
        let result: Promise<T>;
        try {
          signal?.throwIfAborted();
          result = task();
        } catch (error) {
          result = Promise.reject(error);
        }
        result.then(resolve, reject).finally(() => {
          this.running--;
          this.holding.set(caller, this.holding.get(caller)! - 1);
          this.next();
        });
      };
      const waiter: Waiter = { start, caller };
      const onAbort = (): void => {
        const queue = this.waiting.get(caller);
        const index = queue?.indexOf(waiter) ?? -1;
        if (queue && index >= 0) {
          queue.splice(index, 1);
          if (queue.length === 0) this.waiting.delete(caller);
        }
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const queue = this.waiting.get(caller);
      if (queue) queue.push(waiter);
      else this.waiting.set(caller, [waiter]);
      this.next();
    });
  }

  private next(): void {
    while (this.running < this.concurrency && this.waiting.size > 0) {
      let chosen: object | undefined;
      for (const caller of this.waiting.keys()) {
        if (chosen === undefined || this.before(caller, chosen)) chosen = caller;
      }
      const queue = this.waiting.get(chosen!)!;
      const waiter = queue.shift()!;
      if (queue.length === 0) this.waiting.delete(chosen!);
      waiter.start();
    }
  }

  /** Fewer slots held first; then the caller served longest ago (never served: first of all). */
  private before(a: object, b: object): boolean {
    const held = (this.holding.get(a) ?? 0) - (this.holding.get(b) ?? 0);
    if (held !== 0) return held < 0;
    return (this.servedAt.get(a) ?? 0) < (this.servedAt.get(b) ?? 0);
  }
}

/**
 * The caps of one process, one per provider, made once in the composition root
 * (services.ts) and shared by every engine it builds, so standard and advanced models of
 * the same provider share one cap.
 */
export class ProviderLimits {
  readonly #limits = new Map<ProviderName, FairLimiter>();

  /** The cap for `provider`, made on first use with `concurrency` slots (and set to it after). */
  of(provider: ProviderName, concurrency: number): FairLimiter {
    let limit = this.#limits.get(provider);
    if (!limit) {
      limit = new FairLimiter(concurrency);
      this.#limits.set(provider, limit);
    } else if (limit.concurrency !== concurrency) {
      limit.concurrency = concurrency;
    }
    return limit;
  }
}

/**
 * Runs `task` under `limit` for `caller` (a call without one is its own caller). An abort
 * while waiting rejects at once and the task never starts.
 */
export function runLimited<T>(
  limit: FairLimiter,
  task: () => Promise<T>,
  signal?: AbortSignal,
  caller: object = {},
): Promise<T> {
  return limit.run(caller, task, signal);
}

/**
 * `promise`, or a rejection with the signal's reason as soon as it aborts: the waiter (a
 * chunk's slot, a request waiting on another's translation) is let go at once, while the
 * work itself runs on and its result is dropped.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
