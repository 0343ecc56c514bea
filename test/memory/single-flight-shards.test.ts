/**
 * The keys in flight are spread over many maps (memory/single-flight.ts): one map of the
 * 2,000,000 keys of a large request rehashed about a million entries inside a single claim,
 * the costliest turn of that request. What one rehash may move is the fullest map's size.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createHook } from 'node:async_hooks';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { SingleFlight } from '../../src/memory/single-flight.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const KEYS = 100_000;
const key = (i: number) => createHash('sha256').update(String(i)).digest('hex');

describe('single flight over many keys', () => {
  it('100,000 memory keys in flight: no map holds more than twice its even share, and each still leads or follows', async () => {
    const table = new SingleFlight();
    const leader = table.flight('user-1');
    for (let i = 0; i < KEYS; i++) assert.equal(leader.claim(key(i)), true);
    assert.equal(table.size, KEYS);
    assert.ok(table.largestShard <= (2 * KEYS) / 256, `one map holds ${table.largestShard} of ${KEYS} keys`);
    const follower = table.flight('user-1').claim(key(7));
    assert.ok(follower instanceof Promise);
    leader.settle(key(7), 'sept');
    assert.equal(await follower, 'sept');
    for (let i = 0; i < KEYS; i++) leader.settle(key(i), undefined);
    assert.equal(table.size, 0);
    assert.equal(table.largestShard, 0);
    assert.equal(table.flight('user-1').claim(key(7)), true);
  });

  // Followers are rare and a large request leads every key: a promise per lead was the
  // bulk of 200,000 segments into 10 targets' heap (decision 0118).
  it('a lead makes no promise until a follower asks, and every follower gets the one answer', async () => {
    const table = new SingleFlight();
    const keys = Array.from({ length: 10_000 }, (_, i) => key(i));
    const leader = table.flight('user-1');
    let promises = 0;
    const hook = createHook({ init: (_id, type) => void (type === 'PROMISE' && promises++) }).enable();
    try {
      for (const one of keys) leader.claim(one);
    } finally {
      hook.disable();
    }
    assert.equal(promises, 0, `${promises} promises made by 10,000 leads`);
    const first = table.flight('user-1').claim(keys[3]!);
    const second = table.flight('user-1').claim(keys[3]!);
    assert.ok(first instanceof Promise && second instanceof Promise);
    assert.equal(first, second, 'followers of one key share one promise');
    leader.settle(keys[3]!, undefined);
    leader.settle(keys[3]!, 'too late');
    assert.equal(await first, undefined, 'a failed leader settles its followers with undefined, once');
    assert.equal(table.flight('user-1').claim(keys[3]!), true, 'the key is free to lead again');
  });

  it('a key is shared only within a user, and a flight settles only the keys it leads', async () => {
    const table = new SingleFlight();
    const alice = table.flight('alice');
    assert.equal(alice.claim(key(1)), true);
    assert.equal(table.flight('bob').claim(key(1)), true, 'another user leads the same key for itself');
    const other = table.flight('alice');
    const waiting = other.claim(key(1));
    assert.ok(waiting instanceof Promise);
    other.settle(key(1), 'not its key');
    alice.settle(key(1), 'un');
    assert.equal(await waiting, 'un');
    const next = table.flight('alice');
    assert.equal(next.claim(key(1)), true);
    alice.settle(key(1), 'settled already: the key is led by another flight now');
    assert.ok(table.flight('alice').claim(key(1)) instanceof Promise, 'still led by the flight that claimed it last');
  });

  // A large request leads millions of keys: what stays per key while they are in flight is
  // the table's entry, not an object or a string per key (decision 0125; a lead object and
  // the user id joined to each key held some 230 bytes a key before; 40 now).
  it('100,000 keys in flight hold under 64 bytes each beside the keys themselves', () => {
    const keys = Array.from({ length: KEYS }, (_, i) => key(i));
    const table = new SingleFlight();
    const flight = table.flight('3f6c2a9e-4b1d-4e8a-9c7f-2d5b8e1a0c4f');
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    for (const one of keys) flight.claim(one);
    collectGarbage();
    const perKey = (process.memoryUsage().heapUsed - before) / KEYS;
    assert.equal(table.size, KEYS);
    assert.ok(perKey < 64, `${perKey.toFixed(0)} bytes a key in flight`);
  });
});
