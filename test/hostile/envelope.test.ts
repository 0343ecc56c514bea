/**
 * Every answer in the envelope: what Node's HTTP parser, Fastify's router and slow clients
 * provoke is answered `{"error","message"}` with a code from the closed list and an
 * X-Request-Id, over a real socket; error messages quote input only up to a short bound.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ERROR_STATUS } from '../../src/errors.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { GatedEngine, pseudo } from '../helpers/engines.js';
import { rawRequest, type RawResponse } from './raw-http.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function assertEnvelope(response: RawResponse, status: number, code: string): { error: string; message: string } {
  assert.equal(response.status, status, `status, body: ${response.body.slice(0, 300)}`);
  assert.match(response.headers['x-request-id'] ?? '', /\S/, 'an X-Request-Id header');
  const body = JSON.parse(response.body) as { error: string; message: string };
  assert.deepEqual(Object.keys(body).sort(), ['error', 'message']);
  assert.equal(body.error, code);
  assert.equal(ERROR_STATUS[body.error as keyof typeof ERROR_STATUS], status, 'a code of the closed list, with its status');
  assert.ok(body.message.length > 10 && body.message.length <= 400, `a bounded message: ${body.message}`);
  return body;
}

describe('framework and client errors answer in the envelope', () => {
  let test: TestApp;
  let port: number;
  let auth: string;
  /** Holds model calls of `model: "advanced"` until released: an answer that takes longer than the request timeout. */
  const gated = new GatedEngine();
  before(async () => {
    test = await startTestApp({
      env: { RATE_LIMIT_STORE: 'none', HEADERS_TIMEOUT_SECONDS: '1', REQUEST_TIMEOUT_SECONDS: '1' },
      engines: { standard: pseudo(), advanced: gated },
    });
    await test.app.listen({ port: 0, host: '127.0.0.1' });
    port = (test.app.server.address() as AddressInfo).port;
    auth = (await test.key('enterprise')).auth;
  });
  after(() => test.close());

  const get = (path: string, extra = '') =>
    rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${auth}\r\n${extra}Connection: close\r\n\r\n`);

  it('a job id longer than the router allows is 404 not_found, like any other id', async () => {
    for (const id of ['x'.repeat(101), 'f'.repeat(5_000), 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      assertEnvelope(await get(`/v1/jobs/${id}`), 404, 'not_found');
    }
  });

  it('a job id with malformed percent-encoding is 404 not_found', async () => {
    for (const id of ['%zz', '%E0%A4%A', 'abc%']) assertEnvelope(await get(`/v1/jobs/${id}`), 404, 'not_found');
  });

  it('a path with malformed percent-encoding elsewhere is 404 not_found, its echo bounded', async () => {
    const body = assertEnvelope(await get(`/v1/%zz${'a'.repeat(8_000)}`), 404, 'not_found');
    assert.ok(body.message.length < 200, body.message);
  });

  it('headers larger than the server takes are 431 headers_too_large', async () => {
    const response = await get('/v1/health', `X-Filler: ${'a'.repeat(20_000)}\r\n`);
    assertEnvelope(response, 431, 'headers_too_large');
    assert.match(response.headers['x-request-id']!, UUID);
  });

  it('a NUL byte in a header, a malformed header line and an unknown method are 400 invalid_request', async () => {
    assertEnvelope(await get('/v1/health', 'X-Bad: a\u0000b\r\n'), 400, 'invalid_request');
    assertEnvelope(await get('/v1/health', 'this line has no colon\r\n'), 400, 'invalid_request');
    assertEnvelope(
      await rawRequest(port, 'BREW /v1/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'),
      400,
      'invalid_request',
    );
  });

  it('an HTTP/1.1 request without Host is 400 invalid_request', async () => {
    const body = assertEnvelope(await rawRequest(port, 'GET /v1/health HTTP/1.1\r\nConnection: close\r\n\r\n'), 400, 'invalid_request');
    assert.match(body.message, /Host/);
  });

  it('an Expect header other than 100-continue is 417 expectation_failed, with the caller\'s request id, and the body is never read', async () => {
    const body = JSON.stringify({ content: 'Hello', targets: ['fr'] });
    for (const expect of ['nothing-you-know', '200-ok', 'x'.repeat(300)]) {
      const response = await rawRequest(
        port,
        `POST /v1/translate HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${auth}\r\nX-Request-Id: expect-check-1\r\n` +
          `Expect: ${expect}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      const answer = assertEnvelope(response, 417, 'expectation_failed');
      assert.equal(response.headers['x-request-id'], 'expect-check-1');
      assert.equal(response.headers.connection, 'close');
      assert.match(answer.message, /100-continue/);
    }
    // Without a sane id of the caller's, a fresh one.
    const fresh = await get('/v1/health', 'Expect: teapot\r\n');
    assertEnvelope(fresh, 417, 'expectation_failed');
    assert.match(fresh.headers['x-request-id'] ?? '', UUID);
  });

  it('Expect: 100-continue is still honoured: 100 Continue, then the answer as usual', async () => {
    const body = JSON.stringify({ content: 'Hello', targets: ['fr'] });
    const answer = await new Promise<{ continued: boolean; status: number; text: string }>((resolve, reject) => {
      let continued = false;
      const outgoing = httpRequest(
        { host: '127.0.0.1', port, path: '/v1/translate', method: 'POST', headers: { authorization: auth, expect: '100-continue', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ continued, status: response.statusCode ?? 0, text }));
        },
      );
      outgoing.on('continue', () => {
        continued = true;
        outgoing.end(body);
      });
      outgoing.on('error', reject);
    });
    assert.ok(answer.continued, 'the server said 100 Continue');
    assert.equal(answer.status, 200, answer.text.slice(0, 300));
    assert.match(answer.text, /translations/);
  });

  it('a body that arrives too slowly is cut off with 408 request_timeout', async () => {
    const head =
      `POST /v1/translate HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${auth}\r\n` +
      'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"content":"';
    const response = await rawRequest(port, head, { chunks: Array(40).fill('a'), chunkDelayMs: 100, timeoutMs: 8_000 });
    assertEnvelope(response, 408, 'request_timeout');
    assert.ok(response.elapsedMs < 4_000, `cut off after ${response.elapsedMs.toFixed(0)} ms (REQUEST_TIMEOUT_SECONDS=1)`);
  });

  it('the request timeout bounds receiving a request, not answering it', async () => {
    const answer = fetch(`http://127.0.0.1:${port}/v1/translate`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Hello there.', targets: ['fr'], model: 'advanced' }),
    });
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // past REQUEST_TIMEOUT_SECONDS=1 and a check beat
    gated.release();
    const response = await answer;
    assert.equal(response.status, 200, await response.clone().text());
    assert.equal(((await response.json()) as { translations: { fr: string } }).translations.fr, 'Ĥéļļö ţĥéŕé.');
  });

  it('headers that arrive too slowly are cut off with 408 request_timeout', async () => {
    const response = await rawRequest(port, 'GET /v1/health HTTP/1.1\r\nHost: localhost\r\n', {
      chunks: Array(40).fill('X-Slow: 1\r\n'),
      chunkDelayMs: 100,
      timeoutMs: 8_000,
    });
    assertEnvelope(response, 408, 'request_timeout');
  });

  it('a client that hangs up mid-body is logged as such, not as an unavailable dependency', async () => {
    const before = test.logs.length;
    const head =
      `POST /v1/translate HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${auth}\r\n` +
      'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"content":"abc';
    const { connect } = await import('node:net');
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(head);
        setTimeout(() => socket.destroy(), 100);
      });
      socket.on('close', () => resolve());
      socket.on('error', () => {});
    });
    const deadline = Date.now() + 3_000;
    const went = () => test.logs.slice(before).some((line) => /client went away/.test(String(line.msg)));
    while (!went() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(went(), 'the disconnect is logged as the client going away');
    const lines = test.logs.slice(before).map((line) => String(line.msg));
    assert.ok(!lines.some((msg) => /dependency is unavailable|request failed$/.test(msg)), lines.join('\n'));
  });

  it('error messages quote input only up to a short bound', async () => {
    const huge = 'q'.repeat(1_000_000);
    const cases = [
      { content: 'Hello', targets: [huge] },
      { content: 'Hello', targets: ['fr', `zz-${'a'.repeat(8)}`.repeat(1).concat('-abcdefgh'.repeat(100_000))] },
      { content: 'Hello', targets: ['fr'], source: `zz${'-abcdefgh'.repeat(100_000)}` },
    ];
    for (const body of cases) {
      const response = await fetch(`http://127.0.0.1:${port}/v1/translate`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      assert.equal(response.status, 400, text.slice(0, 200));
      assert.ok(text.length < 500, `a ${text.length}-byte error body`);
    }
    const batch = await fetch(`http://127.0.0.1:${port}/v1/translate/batch`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ items: [{ id: huge, content: 'a' }, { id: huge, content: 'b' }], targets: ['fr'] }),
    });
    const text = await batch.text();
    assert.equal(batch.status, 400);
    assert.ok(text.length < 500, `a ${text.length}-byte error body`);
  });

  it('a body nested deeper than any request needs is refused 400 before it is parsed; a deep document in content is not', async () => {
    const post = (body: string) =>
      fetch(`http://127.0.0.1:${port}/v1/translate`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body });
    const deep = await post(`{"content":"Hello","targets":["fr"],"extra":${'['.repeat(900_000)}${']'.repeat(900_000)}}`);
    const body = (await deep.json()) as { error: string; message: string };
    assert.equal(deep.status, 400);
    assert.match(body.message, /nests deeper than 64/);
    const inContent = await post(JSON.stringify({ content: `${'['.repeat(5_000)}${']'.repeat(5_000)}`, format: 'json', targets: ['fr'] }));
    await inContent.arrayBuffer();
    assert.notEqual(inContent.status, 400, 'brackets inside a string are text, not nesting');
  });

  it('a body with a "__proto__" key is refused, and the message says which key and why', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/v1/translate`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: '{"content":"Hello","targets":["fr"],"__proto__":{"admin":true}}',
    });
    const body = (await response.json()) as { error: string; message: string };
    assert.equal(response.status, 400);
    assert.equal(body.error, 'invalid_request');
    assert.match(body.message, /"__proto__"/);
    assert.doesNotMatch(body.message, /not valid JSON/);
  });
});
