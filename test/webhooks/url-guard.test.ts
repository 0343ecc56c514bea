/**
 * The SSRF guard: what a URL may name, what a name may resolve to at delivery time, that
 * the connection goes to the checked address, and that a receiver cannot hold a worker
 * (redirects, silence, a huge answer).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { attemptDelivery, RESPONSE_CAP_BYTES } from '../../src/webhooks/deliver.js';
import { checkWebhookUrl, resolvePublicAddress, UrlRefused, type Resolver } from '../../src/webhooks/url-guard.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const resolverOf = (...addresses: string[]): Resolver => async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('webhook URLs', () => {
  it('accepts an https URL with a public address or name', () => {
    assert.equal(checkWebhookUrl('https://hooks.example.com/translate?x=1', false).hostname, 'hooks.example.com');
    assert.equal(checkWebhookUrl('https://93.184.216.34/in', false).hostname, '93.184.216.34');
  });

  it('refuses what is not a URL, http, credentials, and every special-purpose address literal', () => {
    const refused = [
      'not a url',
      '/relative/path',
      'ftp://example.com/',
      'http://example.com/hook',
      'https://user:pass@example.com/',
      'https://127.0.0.1/',
      'https://127.1/',
      'https://2130706433/',
      'https://0x7f000001/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://10.1.2.3/',
      'https://172.16.0.1/',
      'https://192.168.1.1/',
      'https://169.254.169.254/latest/meta-data/',
      'https://[fd00:ec2::254]/',
      'https://100.100.100.200/',
      'https://0.0.0.0/',
      'https://[fe80::1]/',
      'https://224.0.0.1/',
      'https://localhost/',
      'https://metadata.google.internal/',
      'https://printer.local/',
      `https://example.com/${'a'.repeat(2_100)}`,
    ];
    for (const url of refused) assert.throws(() => checkWebhookUrl(url, false), UrlRefused, url);
  });

  it('WEBHOOK_ALLOW_PRIVATE allows http and private addresses, never other schemes', () => {
    assert.equal(checkWebhookUrl('http://127.0.0.1:8080/hook', true).port, '8080');
    assert.throws(() => checkWebhookUrl('file:///etc/passwd', true), UrlRefused);
  });

  it('refuses a name when any address it resolves to is not public', async () => {
    await assert.rejects(resolvePublicAddress('hooks.example.com', false, resolverOf('169.254.169.254')), /not a public address \(linkLocal\)/);
    await assert.rejects(resolvePublicAddress('hooks.example.com', false, resolverOf('93.184.216.34', '10.0.0.7')), /10\.0\.0\.7/);
    await assert.rejects(resolvePublicAddress('hooks.example.com', false, resolverOf('::ffff:192.168.0.1')), UrlRefused);
    await assert.rejects(resolvePublicAddress('hooks.example.com', false, async () => { throw new Error('ENOTFOUND'); }), /does not resolve/);
    assert.deepEqual(await resolvePublicAddress('hooks.example.com', false, resolverOf('93.184.216.34')), { address: '93.184.216.34', family: 4 });
  });
});

describe('a delivery attempt', () => {
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await startWebhookReceiver();
  });
  after(() => receiver.close());

  const attempt = (url: string, options: { resolve?: Resolver; allowPrivate?: boolean; timeoutMs?: number } = {}) =>
    attemptDelivery({
      url,
      headers: { 'webhook-id': 'msg_1' },
      body: '{}',
      timeoutMs: options.timeoutMs ?? 2_000,
      allowPrivate: options.allowPrivate ?? true,
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });

  it('connects to the address that was checked, whatever else the name would resolve to (DNS rebinding)', async () => {
    // The name exists nowhere but in our resolver: the request can only have reached the
    // receiver through the pinned address, and it still names the host it was sent to.
    let resolutions = 0;
    const resolve: Resolver = async () => {
      resolutions++;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const before = receiver.received.length;
    const result = await attempt(`http://hooks.rebinding.test:${receiver.port}/hooks`, { resolve });
    assert.deepEqual(result, { ok: true, status: 204 });
    assert.equal(resolutions, 1);
    assert.equal(receiver.received[before]!.headers.host, `hooks.rebinding.test:${receiver.port}`);
  });

  it('without WEBHOOK_ALLOW_PRIVATE a name resolving to loopback is refused before any connection', async () => {
    const before = receiver.received.length;
    const result = await attempt(`http://hooks.rebinding.test:${receiver.port}/hooks`, { allowPrivate: false, resolve: resolverOf('127.0.0.1') });
    assert.equal(result.ok, false);
    assert.equal(result.status, null);
    assert.match(!result.ok ? result.error : '', /not a public address \(loopback\)/);
    assert.equal(receiver.received.length, before, 'nothing was sent');
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    receiver.script({ status: 302, location: 'http://169.254.169.254/latest/meta-data/' });
    const before = receiver.received.length;
    const result = await attempt(receiver.url);
    assert.deepEqual(result, { ok: false, status: 302, error: 'answered 302; redirects are not followed' });
    assert.equal(receiver.received.length, before + 1);
  });

  it('gives up on a receiver that never answers within the timeout', async () => {
    receiver.script({ hang: true });
    const started = Date.now();
    const result = await attempt(receiver.url, { timeoutMs: 500 });
    assert.deepEqual(result, { ok: false, status: null, error: 'no answer within 0.5 s' });
    assert.ok(Date.now() - started < 2_000, `${Date.now() - started} ms`);
  });

  it('reads at most the response cap of a huge answer, and does not wait for the rest', async () => {
    receiver.script({ status: 200, bodyBytes: 512 * 1024 * 1024 });
    const started = Date.now();
    const result = await attempt(receiver.url, { timeoutMs: 5_000 });
    assert.deepEqual(result, { ok: true, status: 200 });
    assert.ok(Date.now() - started < 2_000, `${Date.now() - started} ms for a ${RESPONSE_CAP_BYTES}-byte cap`);
  });

  it('a refused connection is a failed attempt with a plain reason', async () => {
    const result = await attempt('http://127.0.0.1:1/hooks');
    assert.equal(result.ok, false);
    assert.match(!result.ok ? result.error : '', /ECONNREFUSED/);
  });
});
