import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryRateLimiter } from '../../src/ratelimit/memory.js';

const T0 = Date.parse('2026-11-21T10:00:00.000Z');
const T0_SECONDS = T0 / 1000;

describe('the sliding window (memory store)', () => {
  it('counts down Remaining and points Reset at the oldest request plus 60 s', async () => {
    const limiter = new MemoryRateLimiter();
    for (let i = 0; i < 5; i++) {
      const decision = await limiter.consume('u', 5, T0 + i * 1000);
      assert.deepEqual(
        { allowed: decision!.allowed, remaining: decision!.remaining, reset: decision!.resetAtSeconds, limit: decision!.limit },
        { allowed: true, remaining: 4 - i, reset: T0_SECONDS + 60, limit: 5 },
      );
    }
  });

  it('refuses the 6th request in the window with Retry-After to the second the oldest expires', async () => {
    const limiter = new MemoryRateLimiter();
    for (let i = 0; i < 5; i++) await limiter.consume('u', 5, T0 + i * 1000);
    const refused = await limiter.consume('u', 5, T0 + 10_000);
    assert.equal(refused!.allowed, false);
    assert.equal(refused!.remaining, 0);
    assert.equal(refused!.resetAtSeconds, T0_SECONDS + 60);
    assert.equal(refused!.retryAfterSeconds, 50);
  });

  it('frees a slot in the 61st second, not before', async () => {
    const limiter = new MemoryRateLimiter();
    for (let i = 0; i < 5; i++) await limiter.consume('u', 5, T0);
    const justBefore = await limiter.consume('u', 5, T0 + 59_999);
    assert.equal(justBefore!.allowed, false);
    assert.equal(justBefore!.retryAfterSeconds, 1);
    const at61st = await limiter.consume('u', 5, T0 + 60_000);
    assert.equal(at61st!.allowed, true);
    // All five old requests left the window together; only the new one counts.
    assert.equal(at61st!.remaining, 4);
    assert.equal(at61st!.resetAtSeconds, T0_SECONDS + 120);
  });

  it('does not count refused requests', async () => {
    const limiter = new MemoryRateLimiter();
    for (let i = 0; i < 5; i++) await limiter.consume('u', 5, T0 + i * 1000);
    for (let i = 0; i < 20; i++) assert.equal((await limiter.consume('u', 5, T0 + 30_000 + i))!.allowed, false);
    // Refusals did not extend the window: the first slot still frees at T0 + 60 s.
    assert.equal((await limiter.consume('u', 5, T0 + 60_000))!.allowed, true);
    assert.equal((await limiter.consume('u', 5, T0 + 60_001))!.allowed, false);
    assert.equal((await limiter.consume('u', 5, T0 + 61_000))!.allowed, true);
  });

  it('rounds Reset up to the whole second the slot frees in', async () => {
    const limiter = new MemoryRateLimiter();
    const decision = await limiter.consume('u', 5, T0 + 250);
    assert.equal(decision!.resetAtSeconds, T0_SECONDS + 61);
  });

  it('keeps each user\'s window apart', async () => {
    const limiter = new MemoryRateLimiter();
    for (let i = 0; i < 5; i++) await limiter.consume('a', 5, T0);
    assert.equal((await limiter.consume('a', 5, T0))!.allowed, false);
    assert.equal((await limiter.consume('b', 5, T0))!.allowed, true);
  });
});
