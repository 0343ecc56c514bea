/** The turn-taking every long main-thread loop uses (src/event-loop/turns.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TurnQueue, type Turns } from '../../src/event-loop/turns.js';

/** Counts the event loop's turns: a callback that runs once in each, until stopped. */
function turnCounter(): { readonly turn: () => number; stop(): void } {
  let turns = 0;
  let stopped = false;
  const tick = () => {
    turns++;
    if (!stopped) setImmediate(tick);
  };
  setImmediate(tick);
  return { turn: () => turns, stop: () => (stopped = true) };
}

/** `steps` steps of 10 µs of the fake clock each, yielding where `turns` says; `onStep` hears each. */
async function loop(steps: number, turns: Turns, clock: { now: number }, onStep: () => void = () => {}): Promise<void> {
  for (let step = 0; step < steps; step++) {
    clock.now += 0.01;
    onStep();
    if (turns.due()) await turns.yield();
  }
}

describe('turns on the main thread', () => {
  it('a long loop that asks due() lets a timer run within a few turns', async () => {
    let now = 0;
    const turns = new TurnQueue(() => now, 8).turns();
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
    const turns = new TurnQueue(() => 0, 8).turns();
    for (let step = 0; step < 10_000; step++) assert.equal(turns.due(), false);
  });

  it('the loops of one queue share one budget a turn, however many they are', async () => {
    const clock = { now: 0 };
    const queue = new TurnQueue(() => clock.now, 8);
    const counter = turnCounter();
    // Fake milliseconds spent by all loops in each turn of the event loop.
    const spentInTurn = new Map<number, number>();
    const onStep = () => spentInTurn.set(counter.turn(), (spentInTurn.get(counter.turn()) ?? 0) + 0.01);
    // Each loop is started in a turn of its own first, as requests arrive; then all take turns.
    const loops = Array.from({ length: 10 }, () => {
      const turns = queue.turns();
      return (async () => {
        await turns.yield();
        await loop(3_000, turns, clock, onStep);
      })();
    });
    await Promise.all(loops);
    counter.stop();
    const longest = Math.max(...spentInTurn.values());
    // A loop woken after the budget is spent gives the turn back at its first look at the
    // clock (64 steps): ten of them add 6.4 ms at most to the 8 ms one loop may take.
    assert.ok(longest <= 8 + 10 * 64 * 0.01 + 0.1, `the loops held one turn for ${longest.toFixed(1)} ms of 8`);
    const total = [...spentInTurn.values()].reduce((sum, ms) => sum + ms, 0);
    assert.ok(spentInTurn.size >= total / 15, `${total.toFixed(0)} ms of work in ${spentInTurn.size} turns`);
  });

  it('takes the loops in rotation, so none waits behind another until it ends', async () => {
    const clock = { now: 0 };
    const queue = new TurnQueue(() => clock.now, 8);
    const counter = turnCounter();
    const ends: number[] = [];
    const loops = Array.from({ length: 3 }, () => {
      const turns = queue.turns();
      return (async () => {
        await turns.yield();
        await loop(3_000, turns, clock); // 30 ms of work each: about four turns' worth
        ends.push(counter.turn());
      })();
    });
    await Promise.all(loops);
    counter.stop();
    // One after another, the first would end after about a third of the turns; in rotation
    // each gets a slice in turn and all three end near the end.
    const [first, , last] = ends as [number, number, number];
    assert.ok(last - first <= 3, `the loops ended in turns ${ends.join(', ')}`);
  });

  it('close() wakes the loops still waiting, and later yields are plain turns', async () => {
    const queue = new TurnQueue(() => 0, 0);
    const turns = queue.turns();
    let woken = false;
    const waiting = turns.yield().then(() => (woken = true));
    queue.close();
    await waiting;
    assert.ok(woken);
    await turns.yield();
    assert.ok(queue.closed);
  });
});
