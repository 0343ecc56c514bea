/**
 * The keys in flight are spread over many maps (memory/single-flight.ts): one map of the
 * 2,000,000 keys of a large request rehashed about a million entries inside a single claim,
 * the costliest turn of that request. What one rehash may move is the fullest map's size.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { userEntry } from '../../src/memory/store.js';
import { SingleFlight } from '../../src/memory/single-flight.js';

const KEYS = 100_000;
const entry = (i: number) => userEntry('user-1', createHash('sha256').update(String(i)).digest('hex'));

describe('single flight over many keys', () => {
  it('100,000 memory keys in flight: no map holds more than twice its even share, and each still leads or follows', async () => {
    const flights = new SingleFlight();
    const settles: ((translation: string | undefined) => void)[] = [];
    for (let i = 0; i < KEYS; i++) {
      const claim = flights.claim(entry(i));
      assert.ok(claim.leader);
      settles.push(claim.settle);
    }
    assert.equal(flights.size, KEYS);
    assert.ok(flights.largestShard <= (2 * KEYS) / 256, `one map holds ${flights.largestShard} of ${KEYS} keys`);
    const follower = flights.claim(entry(7));
    assert.equal(follower.leader, false);
    settles[7]!('sept');
    assert.equal(follower.leader === false && (await follower.result), 'sept');
    for (const settle of settles) settle(undefined);
    assert.equal(flights.size, 0);
    assert.equal(flights.largestShard, 0);
    assert.equal(flights.claim(entry(7)).leader, true);
  });
});
