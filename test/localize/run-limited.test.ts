import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runLimited } from '../../src/localize/run-limited.js';

describe('runLimited (what --concurrency sets)', () => {
  it('keeps at most `limit` tasks in flight, uses all of them, and settles every task in order', async () => {
    for (const limit of [1, 3]) {
      let inFlight = 0;
      let most = 0;
      const tasks = Array.from({ length: 8 }, (_, i) => async () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((wait) => setTimeout(wait, 5));
        inFlight -= 1;
        if (i === 2) throw new Error('task 2');
        return i;
      });
      const results = await runLimited(tasks, limit);
      assert.equal(most, limit);
      assert.deepEqual(
        results.map((result) => (result.status === 'fulfilled' ? result.value : (result.reason as Error).message)),
        [0, 1, 'task 2', 3, 4, 5, 6, 7],
      );
    }
  });
});
