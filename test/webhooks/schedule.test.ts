/** The retry schedule as docs/webhooks.md states it, from the configuration's defaults. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { retryDelayMs } from '../../src/webhooks/schedule.js';

describe('the webhook retry schedule', () => {
  const { webhooks } = loadConfig({});

  it('doubles from 5 s up to 4 h apart and spans about a day over 18 attempts', () => {
    const waits: number[] = [];
    for (let attempt = 1; ; attempt++) {
      const wait = retryDelayMs(webhooks, attempt, () => 0.5);
      if (wait === undefined) break;
      waits.push(wait);
    }
    assert.equal(waits.length, 17, '18 attempts: the first and 17 retries');
    assert.deepEqual(waits.slice(0, 3), [5_000, 10_000, 20_000]);
    assert.equal(waits[11], 10_240_000);
    assert.deepEqual(waits.slice(12), Array(5).fill(4 * 3600_000));
    assert.equal(Math.round(waits.reduce((a, b) => a + b) / 360_000) / 10, 25.7);
  });

  it('jitters each wait by at most a quarter either way', () => {
    assert.equal(retryDelayMs(webhooks, 3, () => 0), 15_000);
    assert.equal(retryDelayMs(webhooks, 3, () => 0.999999), 25_000);
  });

  it('reads its knobs from the environment and names a bad one', () => {
    const config = loadConfig({ WEBHOOK_RETRY_BASE_SECONDS: '1', WEBHOOK_MAX_ATTEMPTS: '2', WEBHOOK_ALLOW_PRIVATE: 'true' }).webhooks;
    assert.deepEqual([config.retryBaseMs, config.maxAttempts, config.allowPrivate], [1_000, 2, true]);
    assert.equal(retryDelayMs(config, 2), undefined);
    assert.throws(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'yes' }), /WEBHOOK_ALLOW_PRIVATE must be one of true, false/);
    assert.throws(() => loadConfig({ WEBHOOK_MAX_PER_USER: '0' }), /WEBHOOK_MAX_PER_USER must be between 1 and 1000/);
  });
});
