/**
 * SpreadMap (event-loop/spread-map.ts): a map whose growth never rehashes every entry in one
 * step, for maps that may hold a key per (target, segment) pair of a large request.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { SpreadMap } from '../../src/event-loop/spread-map.js';

describe('a map spread over many', () => {
  it('behaves as a map: set, get, overwrite, delete, size; short and empty keys too', () => {
    const map = new SpreadMap<number>();
    map.set('a', 1).set('', 2).set('longer key', 3);
    map.set('a', 4);
    assert.equal(map.size, 3);
    assert.equal(map.get('a'), 4);
    assert.equal(map.get(''), 2);
    assert.equal(map.get('missing'), undefined);
    assert.equal(map.delete('a'), true);
    assert.equal(map.delete('a'), false);
    assert.equal(map.size, 2);
    assert.equal(map.get('a'), undefined);
  });

  it('100,000 memory keys (SHA-256 in hex after a user id): no part holds more than twice its even share', () => {
    const map = new SpreadMap<number>();
    const keys = 100_000;
    for (let i = 0; i < keys; i++) map.set(`user-1\u0000${createHash('sha256').update(String(i)).digest('hex')}`, i);
    assert.equal(map.size, keys);
    assert.ok(map.largestPart <= (2 * keys) / 256, `one part holds ${map.largestPart} of ${keys} keys`);
  });
});
