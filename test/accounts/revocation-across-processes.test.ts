/**
 * Keys are cached by the server until they change (src/accounts/key-cache.ts, docs/keys.md):
 * a key revoked or rotated from the command line — another process — while a server
 * runs answers 401 there within 1 second, on both backends; a tier change shows as fast.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';
import { startServed, type Served } from '../helpers/served.js';
import { msUntil } from '../helpers/timing.js';

const LIMIT_MS = 1_000;

async function status(served: Served, key: string): Promise<number> {
  const response = await fetch(`${served.base}/usage`, { headers: { authorization: `Bearer ${key}` } });
  await response.arrayBuffer();
  return response.status;
}

/** Keeps the key in use (so it is cached) for a moment, then returns. */
async function warm(served: Served, key: string): Promise<void> {
  for (let i = 0; i < 20; i++) assert.equal(await status(served, key), 200);
}


for (const backend of testBackends()) {
  describe(`keys changed by another process, on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    it('a key revoked with `keys revoke` answers 401 within 1 s', async () => {
      const served = await startServed(backend);
      try {
        const created = JSON.parse(served.cli('keys', 'create', '--tier', 'scale', '--json')) as { key: string; key_id: string };
        const other = JSON.parse(served.cli('keys', 'create', '--tier', 'scale', '--json')) as { key: string };
        await warm(served, created.key);
        served.cli('keys', 'revoke', created.key_id);
        const ms = await msUntil(async () => (await status(served, created.key)) === 401, 20);
        assert.ok(ms < LIMIT_MS, `revoked key still accepted ${Math.round(ms)} ms after the CLI returned`);
        assert.equal(await status(served, other.key), 200, 'other keys are unaffected');
      } finally {
        await served.close();
      }
    });

    it('a key rotated with `keys rotate` answers 401 within 1 s, and its successor 200', async () => {
      const served = await startServed(backend);
      try {
        const created = JSON.parse(served.cli('keys', 'create', '--tier', 'scale', '--json')) as { key: string; key_id: string };
        await warm(served, created.key);
        const rotated = JSON.parse(served.cli('keys', 'rotate', created.key_id, '--json')) as { key: string };
        const ms = await msUntil(async () => (await status(served, created.key)) === 401, 20);
        assert.ok(ms < LIMIT_MS, `rotated key still accepted ${Math.round(ms)} ms after the CLI returned`);
        assert.equal(await status(served, rotated.key), 200);
      } finally {
        await served.close();
      }
    });

    it('a tier changed with `users set-tier` applies within 1 s', async () => {
      const served = await startServed(backend);
      try {
        const created = JSON.parse(served.cli('keys', 'create', '--tier', 'free', '--json')) as { key: string; user_id: string };
        const tier = async () => {
          const response = await fetch(`${served.base}/usage`, { headers: { authorization: `Bearer ${created.key}` } });
          return ((await response.json()) as { tier: string }).tier;
        };
        await warm(served, created.key);
        assert.equal(await tier(), 'free');
        served.cli('users', 'set-tier', created.user_id, 'growth');
        const ms = await msUntil(async () => (await tier()) === 'growth', 20);
        assert.ok(ms < LIMIT_MS, `old tier still used ${Math.round(ms)} ms after the CLI returned`);
      } finally {
        await served.close();
      }
    });
  });
}
