/** A loop written as a generator, run at once while no turn is due (src/event-loop/run-in-turns.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runInTurns } from '../../src/event-loop/run-in-turns.js';
import { Turns } from '../../src/event-loop/turns.js';

/** Sums 0..count-1, yielding wherever `turns` says a turn is due; `onStep` is told of each step. */
function* sum(count: number, turns: Turns, onStep: () => void = () => {}): Generator<void, number, void> {
  let total = 0;
  for (let i = 0; i < count; i++) {
    total += i;
    onStep();
    if (turns.due()) yield;
  }
  return total;
}

describe('a loop run in turns', () => {
  it('gives its value itself, not a promise, when no turn fell due', () => {
    const turns = new Turns(() => 0, 8); // the clock stands still: no turn is ever over
    const answer = runInTurns(sum(10_000, turns), turns);
    assert.equal(answer, 49_995_000);
  });

  it('goes on in later turns once one is due, letting a timer run between its steps', async () => {
    const turns = new Turns(() => 0, 0); // every look at the clock finds the turn over
    let timerRan = false;
    let stepsAfterTimer = 0;
    setTimeout(() => (timerRan = true), 0);
    const answer = runInTurns(
      sum(10_000, turns, () => {
        if (timerRan) stepsAfterTimer++;
      }),
      turns,
    );
    assert.ok(answer instanceof Promise, 'a loop that had to yield answers with a promise');
    assert.equal(timerRan, false, 'nothing else ran before its first yield');
    assert.equal(await answer, 49_995_000);
    assert.ok(timerRan && stepsAfterTimer > 0, 'the timer ran while the loop still had steps to take');
  });
});
