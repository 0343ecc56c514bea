/**
 * The Redis store: the same decisions and headers as decide() (checked against the
 * memory store over random request streams, on a real Redis), shared by every client,
 * and failing open — counted and logged without flooding — when Redis is unreachable.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { createLogger } from '../../src/logger.js';
import { RATE_WINDOW_MS } from '../../src/ratelimit/limiter.js';
import { MemoryRateLimiter } from '../../src/ratelimit/memory.js';
import { RedisRateLimiter, type RedisLike } from '../../src/ratelimit/redis.js';
import { skipUnless, TEST_REDIS_URL } from '../helpers/backends.js';

function capturingLogger() {
  const lines: { level: number; msg: string; rateLimitFailures?: number }[] = [];
  const logger = createLogger('info', new Writable({
    write(chunk: Buffer, _e, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  }));
  return { logger, lines };
}

class DownRedis implements RedisLike {
  calls = 0;
  async evalsha(): Promise<unknown> {
    this.calls += 1;
    throw new Error("Stream isn't writeable and enableOfflineQueue options is false");
  }
  async eval(): Promise<unknown> {
    throw new Error('unreachable');
  }
  async quit(): Promise<unknown> {
    return 'OK';
  }
}

describe('redis rate limiter without Redis', () => {
  test('lets requests through with no decision, counts each failure, and logs once per outage then at most once a minute', async () => {
    const { logger, lines } = capturingLogger();
    let wall = 1_000_000;
    const redis = new DownRedis();
    const limiter = new RedisRateLimiter({ redis, logger, clock: () => wall });
    for (let i = 0; i < 50; i++) {
      assert.equal(await limiter.consume('user', 5, wall), null);
      wall += 100;
    }
    assert.equal(limiter.failures, 50);
    assert.equal(redis.calls, 50);
    assert.equal(lines.length, 1, 'one line for 50 failures within a minute');
    assert.equal(lines[0]!.level, 50);
    assert.match(lines[0]!.msg, /unreachable/);
    wall += 60_000;
    await limiter.consume('user', 5, wall);
    assert.equal(lines.length, 2);
    assert.equal(lines[1]!.level, 40, 'the reminder is a warning');
    assert.equal(lines[1]!.rateLimitFailures, 51);
  });

  test('falls back to EVAL when Redis has not loaded the script, and logs recovery after an outage', async () => {
    const { logger, lines } = capturingLogger();
    let up = false;
    const seen: string[] = [];
    const redis: RedisLike = {
      async evalsha() {
        seen.push('evalsha');
        if (!up) throw new Error('connect ECONNREFUSED');
        throw new Error('NOSCRIPT No matching script. Please use EVAL.');
      },
      async eval() {
        seen.push('eval');
        return [1, 4, 1_060, 60];
      },
      async quit() {
        return 'OK';
      },
    };
    const limiter = new RedisRateLimiter({ redis, logger });
    assert.equal(await limiter.consume('u', 5, 1_000_000), null);
    up = true;
    const decision = await limiter.consume('u', 5, 1_000_000);
    assert.deepEqual(decision, { allowed: true, limit: 5, remaining: 4, resetAtSeconds: 1_060, retryAfterSeconds: 60 });
    assert.deepEqual(seen, ['evalsha', 'evalsha', 'eval']);
    assert.equal(limiter.failures, 1);
    assert.match(lines.at(-1)!.msg, /reachable again/);
  });
});

describe('redis rate limiter on Redis', { skip: await skipUnless({ redis: true }) }, () => {
  let client: Redis;
  const prefix = `test:rl:${randomBytes(4).toString('hex')}:`;
  const quiet = capturingLogger().logger;
  before(async () => {
    client = new Redis(TEST_REDIS_URL, { lazyConnect: true });
    await client.connect();
  });
  after(async () => {
    // Only this run's keys: other suites may share the Redis.
    const keys = await client.keys(`${prefix}*`);
    if (keys.length) await client.del(...keys);
    await client.quit();
  });

  test('answers exactly what the memory store answers over random request streams', async () => {
    const redisLimiter = new RedisRateLimiter({ redis: client, logger: quiet, keyPrefix: prefix });
    let seed = 42;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let stream = 0; stream < 8; stream++) {
      const memory = new MemoryRateLimiter();
      const key = `stream-${stream}`;
      const limit = [1, 5, 30][stream % 3]!;
      let now = 1_700_000_000_000 + Math.floor(random() * 1000);
      for (let i = 0; i < 80; i++) {
        // Bursts, gaps across the window edge, and exact-boundary steps.
        const r = random();
        now += r < 0.5 ? Math.floor(random() * 2_000) : r < 0.8 ? Math.floor(random() * 20_000) : r < 0.9 ? RATE_WINDOW_MS : 0;
        const expected = await memory.consume(key, limit, now);
        const actual = await redisLimiter.consume(key, limit, now);
        assert.deepEqual(actual, expected, `stream ${stream}, request ${i} at ${now}`);
      }
    }
  });

  test('one window per user across clients (API instances), kept under a one-window TTL, refusals not counted', async () => {
    const second = new Redis(TEST_REDIS_URL);
    const a = new RedisRateLimiter({ redis: client, logger: quiet, keyPrefix: prefix });
    const b = new RedisRateLimiter({ redis: second, logger: quiet, keyPrefix: prefix });
    const now = Date.now();
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).consume('shared', 5, now + i)));
    assert.equal(results.filter((d) => d?.allowed).length, 5);
    assert.equal(await client.zcard(`${prefix}shared`), 5, 'refused requests are not recorded');
    const ttl = await client.pttl(`${prefix}shared`);
    assert.ok(ttl > 0 && ttl <= RATE_WINDOW_MS, `ttl ${ttl}`);
    const refused = results.find((d) => d && !d.allowed)!;
    assert.equal(refused.remaining, 0);
    assert.equal(refused.resetAtSeconds, Math.ceil((now + RATE_WINDOW_MS) / 1000));
    await b.close();
  });
});
