import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fastify from 'fastify';
import { pino } from 'pino';
import { AccessLog } from '../../src/http/plugins/access-log.js';
import { createLogger } from '../../src/logger.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';

for (const backend of testBackends()) {
  describe(`the access log on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let t: TestApp;
    let auth: string;
    before(async () => {
      t = await startTestApp({ backend });
      auth = (await t.key('scale')).auth;
    });
    after(() => t.close());

    const linesOf = (requestId: string) => t.logs.filter((line) => line.reqId === requestId);

    it('writes one line per request: method, path, client, status and time, under its request id', async () => {
      const requestId = `access-${backend}-ok`;
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/translate',
        headers: { authorization: auth, 'x-request-id': requestId },
        payload: { content: 'Hello there.', targets: ['fr'], source: 'en' },
      });
      assert.equal(response.statusCode, 200, response.body);
      const lines = linesOf(requestId);
      assert.deepEqual(lines.map((line) => line.msg), ['request completed']);
      const [line] = lines as [{ level: number; req: Record<string, unknown>; res: Record<string, unknown>; responseTime: unknown }];
      assert.equal(line.level, 30, 'info');
      assert.equal(line.req.method, 'POST');
      assert.equal(line.req.url, '/v1/translate');
      assert.equal(typeof line.req.remoteAddress, 'string');
      assert.equal(line.res.statusCode, 200);
      assert.equal(typeof line.responseTime, 'number');
      assert.ok(!JSON.stringify(line).includes(auth.slice('Bearer '.length)), 'the key is never logged');
    });

    it('logs refused requests the same way, with their status', async () => {
      const requestId = `access-${backend}-401`;
      const response = await t.app.inject({
        method: 'GET',
        url: '/v1/usage',
        headers: { authorization: 'Bearer tsk_not-a-real-key', 'x-request-id': requestId },
      });
      assert.equal(response.statusCode, 401);
      const completed = linesOf(requestId).filter((line) => line.msg === 'request completed');
      assert.equal(completed.length, 1);
      assert.equal((completed[0]!.res as { statusCode: number }).statusCode, 401);
      assert.ok(!linesOf(requestId).some((line) => line.msg === 'incoming request'), 'arrivals are logged at debug only');
    });
  });
}

describe('the access line written by hand', () => {
  /**
   * A bare Fastify app with the service's logger and access log; every request is also
   * logged through pino's own path in onResponse, with Fastify's serializers, so the two
   * lines can be compared byte for byte (time and responseTime aside, taken moments apart).
   */
  async function appWithBothLines(level = 'info') {
    const lines: string[] = [];
    const app = fastify({ loggerInstance: createLogger(level, { write: (line: string) => lines.push(line) }), logController: new AccessLog() });
    app.get('/*', async (request) => {
      if (request.url.includes('work')) request.work = { documents: 1, targets: 2, modelCalls: 1, cachedSegments: 0, inputTokens: 14, cachedInputTokens: 0, outputTokens: 30, ms: 12 };
      return { ok: true };
    });
    app.addHook('onResponse', async (request, reply) => {
      const line = { req: request, res: reply, responseTime: reply.elapsedTime };
      reply.log.info(request.work ? { ...line, work: request.work, viaPino: true } : { ...line, viaPino: true }, 'request completed');
    });
    await app.ready();
    const pairs = () => {
      const comparable = (line: string) => line.replace(/"time":\d+/, '"time":0').replace(/"responseTime":[\d.e-]+/, '"responseTime":0');
      const completed = lines.filter((line) => line.includes('"msg":"request completed"'));
      const byHand = completed.filter((line) => !line.includes('"viaPino":true')).map(comparable);
      const byPino = completed.filter((line) => line.includes('"viaPino":true')).map((line) => comparable(line.replace(',"viaPino":true', '')));
      return { byHand, byPino };
    };
    return { app, lines, pairs };
  }

  it('writes what pino writes, over real HTTP and through inject, with odd URLs and work', async () => {
    const { app, pairs } = await appWithBothLines();
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as { port: number };
      await fetch(`http://127.0.0.1:${port}/plain?q=caf%C3%A9`);
      await fetch(`http://127.0.0.1:${port}/work/here`);
      await app.inject({ method: 'GET', url: '/odd/"quoted"/é', headers: { host: 'we"ird\\hőst\u2028', 'accept-version': '"2"' } });
      await app.inject({ method: 'GET', url: '/work', headers: { host: 'example.test:8080', 'accept-version': '1.x' } });
    } finally {
      await app.close();
    }
    const { byHand, byPino } = pairs();
    assert.equal(byHand.length, 4);
    assert.deepEqual(byHand, byPino);
    // The lines are JSON that says what happened.
    const parsed = byHand.map((line) => JSON.parse(line) as { req: { url: string; remotePort?: number; host?: string; version?: string }; work?: unknown });
    assert.equal(parsed[0]!.req.url, '/plain?q=caf%C3%A9');
    assert.equal(typeof parsed[0]!.req.remotePort, 'number');
    assert.equal(Object.keys(parsed[1]!.work as object).length, 8);
    assert.deepEqual([parsed[2]!.req.url, parsed[2]!.req.host, parsed[2]!.req.version], ['/odd/%22quoted%22/%C3%A9', 'we"ird\\hőst\u2028', '"2"']);
    assert.deepEqual([parsed[3]!.req.host, parsed[3]!.req.version], ['example.test:8080', '1.x']);
  });

  it('writes nothing when info is off', async () => {
    const { app, pairs } = await appWithBothLines('warn');
    await app.inject({ method: 'GET', url: '/plain' });
    await app.close();
    assert.deepEqual(pairs(), { byHand: [], byPino: [] });
  });

  it('writes the same bytes through pino\'s public path when the line cannot be written by hand', async () => {
    // A mixin that adds nothing makes pino's own path necessary and changes no byte.
    const run = async (options: object) => {
      const lines: string[] = [];
      const app = fastify({ loggerInstance: pino(options, { write: (line: string) => lines.push(line) }), logController: new AccessLog() });
      app.get('/*', async (request) => {
        request.work = { documents: 1, targets: 2, modelCalls: 1, cachedSegments: 0, inputTokens: 14, cachedInputTokens: 0, outputTokens: 30, ms: 12 };
        return { ok: true };
      });
      await app.inject({ method: 'GET', url: '/odd/"quoted"/é?x=1', headers: { host: 'we"ird\\hőst\u2028', 'accept-version': '"2"' } });
      await app.close();
      return lines
        .filter((line) => line.includes('"msg":"request completed"'))
        .map((line) => line.replace(/"time":\d+/, '"time":0').replace(/"responseTime":[\d.e-]+/, '"responseTime":0').replace(/"pid":\d+/, '"pid":0'));
    };
    const byHand = await run({});
    const throughPino = await run({ mixin: () => ({}) });
    assert.equal(byHand.length, 1);
    assert.deepEqual(throughPino, byHand);
  });

  it("leaves the line to pino when the logger has something of its own to add (a mixin, redaction)", async () => {
    for (const options of [{ mixin: () => ({ extra: 1 }) }, { redact: ['req.url'] }]) {
      const lines: string[] = [];
      const app = fastify({ loggerInstance: pino(options, { write: (line: string) => lines.push(line) }), logController: new AccessLog() });
      app.get('/*', async () => ({ ok: true }));
      await app.inject({ method: 'GET', url: '/secret' });
      await app.close();
      const completed = lines.map((line) => JSON.parse(line) as { msg: string; extra?: number; req: { url: string } }).filter((line) => line.msg === 'request completed');
      assert.equal(completed.length, 1);
      if ('mixin' in options) assert.equal(completed[0]!.extra, 1);
      else assert.equal(completed[0]!.req.url, '[Redacted]');
    }
  });
});
