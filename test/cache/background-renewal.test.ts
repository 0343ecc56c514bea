/**
 * Cached rows read again while they answer (src/cache/background-renewal.ts, decision 0048):
 * keys handed over together wait up to DELAY_MS and go in one read, in statements of at
 * most the batch; each key's result goes back, a failed read reports each of its keys.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BackgroundRenewal, DELAY_MS } from '../../src/cache/background-renewal.js';

function recorder(fail = false) {
  const reads: string[][] = [];
  const renewed = new Map<string, string | undefined>();
  const failed: string[] = [];
  const renewal = new BackgroundRenewal<string>(
    {
      read: async (keys) => {
        reads.push(keys);
        if (fail) throw new Error('the database is away');
        return new Map(keys.filter((key) => key !== 'gone').map((key) => [key, `now:${key}`]));
      },
      renewed: (key, value) => renewed.set(key, value),
      failed: (key) => failed.push(key),
    },
    2,
  );
  return { renewal, reads, renewed, failed };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, DELAY_MS + 50));

describe('background renewal', () => {
  it('reads the keys handed over together once they waited, in statements of at most the batch', async () => {
    const { renewal, reads, renewed } = recorder();
    for (const key of ['a', 'b', 'gone', 'a']) renewal.add(key);
    assert.equal(reads.length, 0, 'nothing read at once');
    await settled();
    assert.deepEqual(reads, [['a', 'b'], ['gone']]);
    assert.deepEqual([...renewed], [['a', 'now:a'], ['b', 'now:b'], ['gone', undefined]]);
    assert.equal(renewal.readCount, 2);
  });

  it('reports every key of a read that failed', async () => {
    const { renewal, renewed, failed } = recorder(true);
    renewal.add('a');
    renewal.add('b');
    await settled();
    assert.deepEqual(failed, ['a', 'b']);
    assert.equal(renewed.size, 0);
  });
});
