/**
 * A loop that takes turns (turns.ts), written as a generator: it yields where it would
 * await `turns.yield()` (`if (turns.due()) yield;`) and returns its value. `runInTurns`
 * runs it at once while no turn is due, so a small piece of work (one request's sentence)
 * makes no promise for it (decision 0120); at its first yield the rest goes on in later
 * turns and a promise of the value is returned instead (decision 0121).
 *
 * A caller that awaits the answer awaits it only when it is a promise: awaiting a value
 * makes a promise too.
 */
import type { Turns } from './turns.js';

export function runInTurns<T>(steps: Generator<void, T, void>, turns: Turns): T | Promise<T> {
  const step = steps.next();
  return step.done ? step.value : goOn(steps, turns);
}

async function goOn<T>(steps: Generator<void, T, void>, turns: Turns): Promise<T> {
  for (;;) {
    await turns.yield();
    const step = steps.next();
    if (step.done) return step.value;
  }
}
