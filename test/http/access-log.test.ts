import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
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
