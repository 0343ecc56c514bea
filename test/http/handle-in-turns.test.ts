/**
 * Requests handled in turns, answers written in turns (src/http/plugins/handle-in-turns.ts,
 * decisions 0040 and 0045), and not while long work holds the loop (0131), on a bare
 * Fastify app with only that plugin, over real HTTP.
 */
import assert from 'node:assert/strict';
import { channel } from 'node:diagnostics_channel';
import { request as httpRequest, Agent } from 'node:http';
import { connect } from 'node:net';
import { after, describe, it } from 'node:test';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import Fastify from 'fastify';
import { yieldFromLongWork } from '../../src/event-loop/long-work.js';
import { handleInTurns, LONG_WORK_HEARD_MS } from '../../src/http/plugins/handle-in-turns.js';

async function servedApp() {
  const app = Fastify();
  handleInTurns(app);
  const events: string[] = [];
  app.addHook('onRequest', (request, reply, done) => {
    const id = (request.query as { id: string }).id;
    // The moment the answer's bytes are handed to the socket.
    const end = reply.raw.end.bind(reply.raw) as (...args: unknown[]) => unknown;
    reply.raw.end = ((...args: unknown[]) => {
      events.push(`written ${id}`);
      return end(...args);
    }) as typeof reply.raw.end;
    done();
  });
  app.get('/work', async (request) => {
    const id = (request.query as { id: string }).id;
    events.push(`handled ${id}`);
    return { id };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, events, port: (app.server.address() as { port: number }).port };
}

function get(port: number, path: string, agent: Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A loop on the main thread that holds it for `turnMs` a turn, then yields with `yieldTurn`,
 * noting each turn in `events`, until stopped.
 */
function loopHoldingTheThread(events: string[], yieldTurn: () => Promise<void>, turnMs = 5) {
  let running = true;
  const done = (async () => {
    for (let turn = 1; running; turn++) {
      const until = performance.now() + turnMs;
      while (performance.now() < until);
      events.push(`loop turn ${turn}`);
      await yieldTurn();
    }
  })();
  return {
    stop: async () => {
      running = false;
      await done;
    },
  };
}

/** The loop turns between a request's handling and its answer's write. */
function loopTurnsBetween(events: readonly string[], id: string): number {
  const handled = events.indexOf(`handled ${id}`);
  const written = events.indexOf(`written ${id}`);
  assert.ok(handled >= 0 && written > handled, events.join(', '));
  return events.slice(handled, written).filter((event) => event.startsWith('loop turn')).length;
}

/** Sends `paths` pipelined in one write on one connection (so they arrive in one read) and returns what came back. */
function pipelined(port: number, paths: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(paths.map((path) => `GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`).join(''));
    });
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if ((received.match(/HTTP\/1\.1 /g) ?? []).length === paths.length && received.endsWith('}')) socket.end();
    });
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

describe('requests in turns (decisions 0040, 0045)', () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  after(() => agent.destroy());

  it('requests that arrive together are all handled before any of their answers is written, and every answer arrives whole, in order', async () => {
    const { app, events, port } = await servedApp();
    try {
      const received = await pipelined(port, ['/work?id=1', '/work?id=2', '/work?id=3']);
      assert.deepEqual(events, ['handled 1', 'handled 2', 'handled 3', 'written 1', 'written 2', 'written 3']);
      assert.deepEqual(
        [...received.matchAll(/\{"id":"(\d)"\}/g)].map((m) => m[1]),
        ['1', '2', '3'],
      );
      assert.equal((received.match(/HTTP\/1\.1 200 OK/g) ?? []).length, 3);
    } finally {
      await app.close();
    }
  });

  it('an answer on an idle server leaves within a few milliseconds', async () => {
    const { app, port } = await servedApp();
    try {
      await get(port, '/work?id=warm', agent);
      const started = performance.now();
      const answer = await get(port, '/work?id=alone', agent);
      assert.equal(answer.status, 200);
      assert.ok(performance.now() - started < 50, `${performance.now() - started} ms`);
    } finally {
      await app.close();
    }
  });

  it('while long work yields, a request is answered in the turn it is handled in, not after the next turn of the long loop', async () => {
    const { app, events, port } = await servedApp();
    const loop = loopHoldingTheThread(events, yieldFromLongWork);
    try {
      await sleep(20);
      const answer = await get(port, '/work?id=during', agent);
      assert.equal(answer.status, 200);
      assert.equal(loopTurnsBetween(events, 'during'), 0, events.join(', '));
    } finally {
      await loop.stop();
      await app.close();
    }
  });

  it('a loop that yields without saying it is long work leaves the hops on: the answer waits for its next turn', async () => {
    const { app, events, port } = await servedApp();
    const loop = loopHoldingTheThread(events, () => nextTurn());
    try {
      await sleep(20);
      await get(port, '/work?id=hopped', agent);
      assert.ok(loopTurnsBetween(events, 'hopped') >= 1, events.join(', '));
    } finally {
      await loop.stop();
      await app.close();
    }
  });

  it('once long work has stopped yielding for LONG_WORK_HEARD_MS, requests arriving together are handled in turns again', async () => {
    const { app, events, port } = await servedApp();
    const loop = loopHoldingTheThread(events, yieldFromLongWork);
    await sleep(20);
    await loop.stop();
    try {
      await sleep(LONG_WORK_HEARD_MS + 50);
      events.length = 0;
      await pipelined(port, ['/work?id=1', '/work?id=2']);
      assert.deepEqual(events, ['handled 1', 'handled 2', 'written 1', 'written 2']);
    } finally {
      await app.close();
    }
  });

  it('an app closed stops hearing long work', async () => {
    const longWorkYields = channel('translation-api:long-work-yields');
    const { app } = await servedApp();
    assert.equal(longWorkYields.hasSubscribers, true, 'the app listens on the channel long work publishes to');
    await app.close();
    assert.equal(longWorkYields.hasSubscribers, false);
  });
});
