import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FairLimiter, ProviderLimits } from '../../src/engines/provider-limit.js';

/** A task that runs until `finish()`; records the order tasks started in. */
function gate(started: string[], name: string): { task: () => Promise<string>; finish: () => void } {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    task: async () => {
      started.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('FairLimiter', () => {
  test('never runs more than its concurrency at once', async () => {
    const limiter = new FairLimiter(3);
    let running = 0;
    let most = 0;
    const caller = {};
    await Promise.all(
      Array.from({ length: 10 }, () =>
        limiter.run(caller, async () => {
          running++;
          most = Math.max(most, running);
          await tick();
          running--;
        }),
      ),
    );
    assert.equal(most, 3);
    assert.equal(limiter.active, 0);
  });

  test('a free slot goes round-robin between callers, not to the oldest call', async () => {
    const limiter = new FairLimiter(1);
    const started: string[] = [];
    const big = {};
    const small = {};
    const gates = new Map<string, ReturnType<typeof gate>>();
    const run = (caller: object, name: string) => {
      const g = gate(started, name);
      gates.set(name, g);
      return limiter.run(caller, g.task);
    };
    const all = [run(big, 'big1'), run(big, 'big2'), run(big, 'big3'), run(big, 'big4'), run(small, 'small1'), run(small, 'small2')];
    for (let i = 0; i < 6; i++) {
      await tick();
      gates.get(started.at(-1)!)!.finish();
    }
    await Promise.all(all);
    // FIFO by call would have run all of big first.
    assert.deepEqual(started, ['big1', 'small1', 'big2', 'small2', 'big3', 'big4']);
  });

  test('an abort while waiting gives up the place and the task never starts', async () => {
    const limiter = new FairLimiter(1);
    const started: string[] = [];
    const first = gate(started, 'first');
    const running = limiter.run({}, first.task);
    const controller = new AbortController();
    const waiting = limiter.run({}, gate(started, 'second').task, controller.signal);
    controller.abort(new Error('client went away'));
    await assert.rejects(waiting, /client went away/);
    assert.equal(limiter.pending, 0);
    first.finish();
    await running;
    assert.deepEqual(started, ['first']);
  });

  test('a failing task frees its slot', async () => {
    const limiter = new FairLimiter(1);
    await assert.rejects(limiter.run({}, async () => Promise.reject(new Error('boom'))), /boom/);
    assert.equal(await limiter.run({}, async () => 'next'), 'next');
  });
});

describe('ProviderLimits', () => {
  test('gives one cap per provider, shared by every engine it is handed to, and none shared with another process\'s set', () => {
    const limits = new ProviderLimits();
    const openai = limits.of('openai', 4);
    assert.equal(limits.of('openai', 4), openai);
    assert.notEqual(limits.of('anthropic', 4), openai);
    assert.equal(limits.of('openai', 2), openai, 'a new concurrency resizes the same cap');
    assert.equal(openai.concurrency, 2);
    assert.notEqual(new ProviderLimits().of('openai', 2), openai, 'two sets (two composition roots) share nothing');
  });
});
