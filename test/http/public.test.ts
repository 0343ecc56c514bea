import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { json, startTestApp, type TestApp } from '../helpers/app.js';

describe('public endpoints', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('GET /v1/health answers ok with an ISO timestamp, without a key', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/health' });
    assert.equal(response.statusCode, 200);
    const body = json(response);
    assert.deepEqual(Object.keys(body).sort(), ['status', 'timestamp']);
    assert.equal(body.status, 'ok');
    assert.match(body.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('GET /v1/languages lists the 43 languages with names and directions', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/languages' });
    assert.equal(response.statusCode, 200);
    const { languages } = json<{ languages: { code: string; name: string; rtl: boolean }[] }>(response);
    assert.equal(languages.length, 43);
    assert.equal(languages.filter((l) => !l.code.includes('-')).length, 36);
    assert.deepEqual(languages.filter((l) => l.rtl).map((l) => l.code).sort(), ['ar', 'fa', 'he', 'ur']);
    assert.deepEqual(languages.find((l) => l.code === 'fr-CA'), { code: 'fr-CA', name: 'French (Canada)', rtl: false });
    for (const code of ['en', 'ar', 'es', 'fr', 'de', 'it', 'en-GB', 'en-US', 'es-MX', 'pt-BR', 'pt-PT', 'zh-TW']) {
      assert.ok(languages.some((l) => l.code === code), code);
    }
    for (const language of languages) assert.deepEqual(Object.keys(language).sort(), ['code', 'name', 'rtl']);
  });

  it('an unknown route answers 404 not_found as JSON', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/nothing-here' });
    assert.equal(response.statusCode, 404);
    assert.equal(json(response).error, 'not_found');
    assert.equal(typeof json(response).message, 'string');
  });

  it('every response carries X-Request-Id, including errors', async () => {
    for (const url of ['/v1/health', '/v1/nothing-here', '/v1/usage']) {
      const response = await t.app.inject({ method: 'GET', url });
      assert.match(String(response.headers['x-request-id']), /^[0-9a-f-]{36}$/, url);
    }
  });

  it('echoes a sane X-Request-Id from the caller', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/health', headers: { 'x-request-id': 'trace-123' } });
    assert.equal(response.headers['x-request-id'], 'trace-123');
  });
});
