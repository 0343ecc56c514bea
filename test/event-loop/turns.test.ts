/** The turn-taking every long main-thread loop uses (src/event-loop/turns.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Turns } from '../../src/event-loop/turns.js';

describe('turns on the main thread', () => {
  it('a long loop that asks due() lets a timer run within a few turns', async () => {
    let now = 0;
    const turns = new Turns(() => now, 8);
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    let yields = 0;
    for (let step = 0; step < 10_000 && !timerRan; step++) {
      now += 0.01; // each step takes 10 µs of the fake clock
      if (turns.due()) {
        yields++;
        await turns.yield();
      }
    }
    assert.ok(timerRan, 'the timer ran before the loop finished');
    assert.ok(yields >= 1 && yields <= 3, `it took ${yields} yields`);
  });

  it('does not yield while a turn lasts less than its budget', async () => {
    const turns = new Turns(() => 0, 8);
    for (let step = 0; step < 10_000; step++) assert.equal(turns.due(), false);
  });
});
