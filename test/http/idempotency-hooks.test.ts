/**
 * The Idempotency-Key hooks on a request without a key — nearly every request — go on at
 * once: `done` is called before the hook returns, and no promise is returned for Fastify
 * to wait on (a promise and a microtask turn a hook, three a request, on the path
 * docs/benchmarks.md measures in "Request path after the fences"). With a key they take
 * the async path (test/http/idempotency.test.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../src/deps.js';
import { idempotencyHooks } from '../../src/http/plugins/idempotency.js';

type Hook = (...args: unknown[]) => unknown;

describe('the Idempotency-Key hooks without a key', () => {
  const hooks = idempotencyHooks({ idempotency: {} } as unknown as AppDeps);
  const request = { headers: {}, idempotency: undefined } as unknown as FastifyRequest;
  const reply = {} as FastifyReply;

  it('preHandler calls done before it returns, and returns no promise', () => {
    let called = 0;
    const returned = (hooks.preHandler as unknown as Hook)(request, reply, () => called++);
    assert.equal(called, 1);
    assert.equal(returned, undefined);
  });

  it('onSend hands the payload on before it returns, and returns no promise', () => {
    const seen: unknown[] = [];
    const returned = (hooks.onSend as unknown as Hook)(request, reply, 'the answer', (error: unknown, payload: unknown) => seen.push(error, payload));
    assert.deepEqual(seen, [null, 'the answer']);
    assert.equal(returned, undefined);
  });

  it('onResponse calls done before it returns, and returns no promise', () => {
    let called = 0;
    const returned = (hooks.onResponse as unknown as Hook)(request, reply, () => called++);
    assert.equal(called, 1);
    assert.equal(returned, undefined);
  });
});
