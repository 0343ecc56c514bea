/**
 * The keys in flight are spread over many maps (memory/single-flight.ts): one map of the
 * 2,000,000 keys of a large request rehashed about a million entries inside a single claim,
 * the costliest turn of that request. What one rehash may move is the fullest map's size.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createHook } from 'node:async_hooks';
import { describe, it } from 'node:test';
import { userEntry } from '../../src/memory/store.js';
import { SingleFlight, type Lead } from '../../src/memory/single-flight.js';

const KEYS = 100_000;
const entry = (i: number) => userEntry('user-1', createHash('sha256').update(String(i)).digest('hex'));

describe('single flight over many keys', () => {
  it('100,000 memory keys in flight: no map holds more than twice its even share, and each still leads or follows', async () => {
    const flights = new SingleFlight();
    const leads: Lead[] = [];
    for (let i = 0; i < KEYS; i++) {
      const claim = flights.claim(entry(i));
      assert.ok(claim.leader);
      leads.push(claim);
    }
    assert.equal(flights.size, KEYS);
    assert.ok(flights.largestShard <= (2 * KEYS) / 256, `one map holds ${flights.largestShard} of ${KEYS} keys`);
    const follower = flights.claim(entry(7));
    assert.equal(follower.leader, false);
    leads[7]!.settle('sept');
    assert.equal(follower.leader === false && (await follower.result), 'sept');
    for (const lead of leads) lead.settle(undefined);
    assert.equal(flights.size, 0);
    assert.equal(flights.largestShard, 0);
    assert.equal(flights.claim(entry(7)).leader, true);
  });

  // Followers are rare and a large request leads every key: a promise per lead was the
  // bulk of 200,000 segments into 10 targets' heap (decision 0118).
  it('a lead makes no promise until a follower asks, and every follower gets the one answer', async () => {
    const flights = new SingleFlight();
    const keys = Array.from({ length: 10_000 }, (_, i) => entry(i));
    let promises = 0;
    const hook = createHook({ init: (_id, type) => void (type === 'PROMISE' && promises++) }).enable();
    let leads: Lead[];
    try {
      leads = keys.map((key) => flights.claim(key) as Lead);
    } finally {
      hook.disable();
    }
    assert.equal(promises, 0, `${promises} promises made by 10,000 leads`);
    const first = flights.claim(keys[3]!);
    const second = flights.claim(keys[3]!);
    assert.ok(!first.leader && !second.leader);
    assert.equal(first.result, second.result, 'followers of one key share one promise');
    leads[3]!.settle(undefined);
    leads[3]!.settle('too late');
    assert.equal(await first.result, undefined, 'a failed leader settles its followers with undefined, once');
    assert.equal(flights.claim(keys[3]!).leader, true, 'the key is free to lead again');
  });
});
