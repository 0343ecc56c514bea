/**
 * A request's cancellation (src/http/abort-on-close.ts) fires when its client goes away,
 * whether the signal was first read before or after the client left, and never for an
 * answer that was sent; until something reads `signal` there is no listener at all.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { abortOnClientClose } from '../../src/http/abort-on-close.js';
import type { Cancellation } from '../../src/translation/cancellation.js';

describe('the cancellation of a request', () => {
  let app: FastifyInstance;
  let base: string;
  /** What each route saw, by the name the client sent. */
  const seen = new Map<string, { signal: AbortSignal; listenersBeforeRead?: number }>();
  const arrived = new Map<string, () => void>();
  const waitForArrival = (name: string) => new Promise<void>((resolve) => arrived.set(name, resolve));

  before(async () => {
    app = Fastify();
    // Reads the signal at once, then waits for the client to leave.
    app.get('/early/:name', async (request, reply) => {
      const { name } = request.params as { name: string };
      const cancellation = abortOnClientClose(reply);
      seen.set(name, { signal: cancellation.signal });
      arrived.get(name)?.();
      await new Promise((resolve) => cancellation.signal.addEventListener('abort', resolve, { once: true }));
      return 'never sent';
    });
    // Reads the signal only after the client has left (as a model call that starts late would).
    app.get('/late/:name', async (request, reply) => {
      const { name } = request.params as { name: string };
      const before = reply.raw.listenerCount('close');
      const cancellation: Cancellation = abortOnClientClose(reply);
      const listenersBeforeRead = reply.raw.listenerCount('close') - before;
      arrived.get(name)?.();
      while (!reply.raw.closed) await new Promise((resolve) => setTimeout(resolve, 5));
      seen.set(name, { signal: cancellation.signal, listenersBeforeRead });
      return 'never sent';
    });
    // Answers, then reads the signal.
    app.get('/answered/:name', async (request, reply) => {
      const { name } = request.params as { name: string };
      const cancellation = abortOnClientClose(reply);
      const signal = cancellation.signal;
      reply.raw.once('finish', () => setImmediate(() => seen.set(name, { signal })));
      return 'done';
    });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => app.close());

  /** Sends GET path and destroys the connection once the route has the request. */
  async function leaveDuring(path: string, name: string): Promise<void> {
    const arrival = waitForArrival(name);
    const request = httpRequest(`${base}${path}/${name}`);
    request.on('error', () => {});
    request.end();
    await arrival;
    request.destroy();
  }

  async function seenFor(name: string) {
    for (let i = 0; i < 400 && !seen.has(name); i++) await new Promise((resolve) => setTimeout(resolve, 5));
    const entry = seen.get(name);
    assert.ok(entry, `the route for ${name} finished`);
    return entry;
  }

  it('aborts a signal read before the client left', async () => {
    await leaveDuring('/early', 'a');
    const { signal } = await seenFor('a');
    for (let i = 0; i < 400 && !signal.aborted; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(signal.aborted, true);
    assert.match(String((signal.reason as Error).message), /client closed the connection/);
  });

  it('hands out a signal already aborted when first read after the client left, and adds no listener before', async () => {
    await leaveDuring('/late', 'b');
    const { signal, listenersBeforeRead } = await seenFor('b');
    assert.equal(signal.aborted, true);
    assert.equal(listenersBeforeRead, 0, 'making the cancellation added no close listener');
  });

  it('never aborts for an answer that was sent', async () => {
    const response = await fetch(`${base}/answered/c`);
    assert.equal(await response.text(), 'done');
    const { signal } = await seenFor('c');
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(signal.aborted, false);
  });
});
