/**
 * Signatures a receiver can check with the Standard Webhooks reference library (the
 * `standardwebhooks` package, not our code), and a fixed vector so a refactor can never
 * silently change what every receiver verifies.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { newSigningSecret, signDelivery } from '../../src/webhooks/signing.js';

describe('webhook signatures', () => {
  it('a fresh secret is whsec_ and 32 random bytes in base64, different every time', () => {
    const a = newSigningSecret();
    const b = newSigningSecret();
    assert.match(a, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(a.slice(6), 'base64').length, 32);
    assert.notEqual(a, b);
  });

  it('the standardwebhooks library verifies our headers and returns the payload', () => {
    const secret = newSigningSecret();
    const body = JSON.stringify({ type: 'job.completed', timestamp: '2026-11-28T10:00:00.000Z', data: { job_id: 'x', text: 'Ĥéļļö — ü 😀' } });
    const headers = signDelivery(secret, 'msg_abc', Math.floor(Date.now() / 1000), body);
    assert.match(headers['webhook-signature'], /^v1,[A-Za-z0-9+/]+=*$/);
    const verified = new Webhook(secret).verify(body, { ...headers }) as { data: { text: string } };
    assert.equal(verified.data.text, 'Ĥéļļö — ü 😀');
  });

  it('the library refuses a changed body, another secret and an old timestamp', () => {
    const secret = newSigningSecret();
    const body = '{"type":"job.failed"}';
    const now = Math.floor(Date.now() / 1000);
    const headers = signDelivery(secret, 'msg_1', now, body);
    assert.throws(() => new Webhook(secret).verify('{"type":"job.completed"}', { ...headers }));
    assert.throws(() => new Webhook(newSigningSecret()).verify(body, { ...headers }));
    const stale = signDelivery(secret, 'msg_1', now - 3600, body);
    assert.throws(() => new Webhook(secret).verify(body, { ...stale }), /timestamp/i);
  });

  it('signs the spec\'s own example to the spec\'s signature', () => {
    // The example of the Standard Webhooks specification (its "Signature scheme" section).
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';
    const headers = signDelivery(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body);
    assert.equal(headers['webhook-signature'], 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    assert.equal(new Webhook(secret).sign('msg_p5jXN8AQM9LWM0D4loKWxJek', new Date(1614265330 * 1000), body), headers['webhook-signature']);
  });
});
