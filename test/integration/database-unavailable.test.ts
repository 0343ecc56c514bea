/**
 * With PostgreSQL unreachable the API answers 503 service_unavailable in the error
 * envelope (not 500, not a hang, not a crash), and serves again — workers included,
 * woken by a LISTEN connection that reconnected — as soon as the database is back.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isDatabaseUnavailable } from '../../src/db/unavailable.js';
import { ServiceError } from '../../src/errors.js';
import { toErrorResponse } from '../../src/http/errors.js';
import { json, startTestApp } from '../helpers/app.js';
import { testJobWorker } from '../helpers/job-worker.js';
import { createTestDatabase, skipUnless, testBackends } from '../helpers/backends.js';
import { quietLogger } from '../jobs/queue-setup.js';
import { startTcpProxy } from './tcp-proxy.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('telling a database outage from a bug', () => {
  test('connection-class failures are outages, wrapped or not', () => {
    for (const error of [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], ''),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('the database system is starting up', '57P03'),
      withCode('connection failure', '08006'),
      withCode('sorry, too many clients already', '53300'),
      new ServiceError('server_error', 'the job could not be queued; it is safe to retry', { cause: withCode('x', 'ECONNRESET') }),
    ]) {
      assert.equal(isDatabaseUnavailable(error), true, String(error));
      assert.deepEqual(toErrorResponse(error).status, 503, String(error));
      assert.equal(toErrorResponse(error).body.error, 'service_unavailable');
    }
  });

  test('query bugs and domain errors keep their own answers', () => {
    assert.equal(toErrorResponse(withCode('syntax error at or near "selec"', '42601')).status, 500);
    assert.equal(toErrorResponse(withCode('duplicate key value violates unique constraint', '23505')).status, 500);
    assert.equal(toErrorResponse(new TypeError('x is undefined')).status, 500);
    const limited = new ServiceError('token_limit_reached', 'no tokens left', { cause: withCode('x', 'ECONNRESET') });
    assert.equal(toErrorResponse(limited).status, 429);
  });
});

const skip = testBackends().includes('postgres')
  ? await skipUnless({ backend: 'postgres' })
  : 'SKIPPED: TEST_DATABASES does not include postgres';

describe('PostgreSQL going away and coming back', { skip }, () => {
  test('requests get 503 during the outage and succeed after it; a worker hears NOTIFY again without polling', async () => {
    const database = await createTestDatabase('postgres');
    const real = new URL(database.url);
    const proxy = await startTcpProxy({ host: real.hostname, port: Number(real.port || 5432) });
    const proxied = new URL(database.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const t = await startTestApp({ backend: 'postgres', env: { DATABASE_URL: proxied.toString(), RATE_LIMIT_STORE: 'none' } });
    const { db } = t.services.database;
    const worker = testJobWorker(t.services, {
      db,
      logger: quietLogger,
      // Far beyond the test: a job found quickly was found by a notification.
      pollIntervalMs: 120_000,
      retryBaseMs: 2_000,
    });
    try {
      const { auth } = await t.key('starter');
      const headers = { authorization: auth, 'content-type': 'application/json' };
      await worker.start();
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/usage', headers })).statusCode, 200);

      await proxy.down();
      for (const request of [
        { method: 'GET' as const, url: '/v1/usage' },
        { method: 'POST' as const, url: '/v1/translate', payload: { content: 'Hello', targets: ['fr'] } },
        { method: 'POST' as const, url: '/v1/jobs', payload: { content: 'Hello', targets: ['fr'] } },
      ]) {
        const started = Date.now();
        const response = await t.app.inject({ ...request, headers });
        assert.equal(response.statusCode, 503, response.body);
        const body = json(response);
        assert.equal(body.error, 'service_unavailable');
        assert.equal(typeof body.message, 'string');
        assert.deepEqual(Object.keys(body).sort(), ['error', 'message']);
        assert.ok(Date.now() - started < 6_000, 'answered within the connect timeout');
      }
      await new Promise((r) => setTimeout(r, 300)); // the LISTEN connection is down and retrying

      await proxy.up();
      let usage = await t.app.inject({ method: 'GET', url: '/v1/usage', headers });
      assert.equal(usage.statusCode, 200, usage.body);
      // Give the LISTEN connection its reconnect (backoff starts at 250 ms).
      await new Promise((r) => setTimeout(r, 1_500));
      const completed = new Promise<string>((resolve) => worker.once('job:complete', resolve));
      const submitted = await t.app.inject({ method: 'POST', url: '/v1/jobs', headers, payload: { content: 'Hello', targets: ['fr'] } });
      assert.equal(submitted.statusCode, 202, submitted.body);
      const jobId = await Promise.race([
        completed,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the worker was not woken by NOTIFY after the outage')), 5_000)),
      ]);
      assert.equal(jobId, json(submitted).job_id);
      usage = await t.app.inject({ method: 'GET', url: '/v1/usage', headers });
      assert.equal(usage.statusCode, 200);
      assert.ok(t.logs.every((line) => line.level !== 60), 'nothing fatal was logged');
    } finally {
      await worker.stop(1_000);
      await t.close();
      await proxy.close();
      await database.drop();
    }
  });
});
