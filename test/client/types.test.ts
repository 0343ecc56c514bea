import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { json, startTestApp, type TestApp } from '../helpers/app.js';

describe('the client\'s generated types', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('were made from the document the service serves now (else run `npm run client:types`)', async () => {
    const served = json(await t.app.inject({ method: 'GET', url: '/v1/openapi.json' }));
    const committed = JSON.parse(readFileSync('client/openapi.json', 'utf8'));
    assert.deepEqual(committed, served, 'client/openapi.json is stale: run `npm run client:types`');
  });

  it('match what openapi-typescript makes of that document', () => {
    const check = spawnSync(process.execPath, ['client/scripts/generate-types.mjs', '--check'], { encoding: 'utf8' });
    assert.equal(check.status, 0, `${check.stdout}${check.stderr}`);
  });
});
