import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../helpers/net.js';

const CLI = resolve('dist/cli.js');

function run(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the translate-service command line', () => {
  let dir: string;
  let env: Record<string, string>;
  before(() => {
    assert.ok(existsSync(CLI), 'dist/cli.js is missing: run `npm run build` (npm test does it first)');
    dir = mkdtempSync(join(tmpdir(), 'translate-cli-'));
    env = { DATABASE_URL: `sqlite:${join(dir, 'data', 'cli.db')}`, LOG_LEVEL: 'warn' };
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('keys create --json prints exactly one JSON object with the key, its id, the user and the tier', () => {
    const result = run(['keys', 'create', '--tier', 'growth', '--user', 'acme_1', '--name', 'ci', '--json'], env);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trim().split('\n');
    assert.equal(lines.length, 1);
    const created = JSON.parse(lines[0]!);
    assert.deepEqual(Object.keys(created).sort(), ['key', 'key_id', 'tier', 'user_id']);
    assert.equal(created.user_id, 'acme_1');
    assert.equal(created.tier, 'growth');
    assert.match(created.key, /^tsk_/);
  });

  it('keys create makes a random user when --user is omitted, and rejects a bad user id or tier', () => {
    const created = JSON.parse(run(['keys', 'create', '--tier', 'free', '--json'], env).stdout);
    assert.match(created.user_id, /^[A-Za-z0-9_-]{1,64}$/);
    const badUser = run(['keys', 'create', '--tier', 'free', '--user', 'no spaces!'], env);
    assert.notEqual(badUser.code, 0);
    assert.match(badUser.stderr, /user id/);
    const badTier = run(['keys', 'create', '--tier', 'platinum'], env);
    assert.notEqual(badTier.code, 0);
    assert.match(badTier.stderr, /tier must be one of free, starter, growth, scale, enterprise/);
  });

  it('keys list never shows keys; revoke and rotate change what list shows', () => {
    const created = JSON.parse(run(['keys', 'create', '--tier', 'scale', '--user', 'rotor', '--json'], env).stdout);
    const rotated = JSON.parse(run(['keys', 'rotate', created.key_id, '--json'], env).stdout);
    assert.equal(rotated.user_id, 'rotor');
    assert.notEqual(rotated.key, created.key);
    const listed = run(['keys', 'list', '--user', 'rotor', '--json'], env);
    assert.ok(!listed.stdout.includes(created.key) && !listed.stdout.includes(rotated.key));
    const rows = JSON.parse(listed.stdout) as Array<{ key_id: string; revoked_at: string | null }>;
    assert.deepEqual(rows.map((r) => [r.key_id, r.revoked_at !== null]), [[created.key_id, true], [rotated.key_id, false]]);
    assert.equal(run(['keys', 'revoke', rotated.key_id], env).code, 0);
    const again = run(['keys', 'revoke', rotated.key_id], env);
    assert.notEqual(again.code, 0);
    assert.match(again.stderr, /already revoked/);
  });

  it('users set-tier changes a user\'s tier', () => {
    run(['keys', 'create', '--tier', 'free', '--user', 'upgrader'], env);
    assert.equal(run(['users', 'set-tier', 'upgrader', 'scale'], env).code, 0);
    const rows = JSON.parse(run(['keys', 'list', '--user', 'upgrader', '--json'], env).stdout);
    assert.equal(rows[0].tier, 'scale');
    assert.notEqual(run(['users', 'set-tier', 'nobody-here', 'scale'], env).code, 0);
  });

  it('stops at start with a message naming a bad configuration variable', () => {
    for (const [name, value, message] of [
      ['PORT', 'eighty', /PORT/],
      ['RATE_LIMIT_STORE', 'redis', /RATE_LIMIT_STORE=redis needs REDIS_URL/],
      ['DATABASE_URL', 'mysql://x', /DATABASE_URL/],
      ['MODEL_STANDARD', 'gpt-4', /MODEL_STANDARD/],
      ['WORKER_CONCURRENCY', '0', /WORKER_CONCURRENCY/],
      ['LOG_LEVEL', 'loud', /LOG_LEVEL/],
    ] as const) {
      const result = run(['migrate'], { ...env, [name]: value });
      assert.equal(result.code, 2, `${name}=${value}: ${result.stderr}`);
      assert.match(result.stderr, message);
    }
  });

  it('serve on a first start creates one free key, prints a working curl, names the engine, and exits cleanly on SIGTERM', async () => {
    const port = await freePort();
    const fresh = { DATABASE_URL: `sqlite:${join(dir, 'first', 'run.db')}`, PORT: String(port), LOG_LEVEL: 'info' };
    const child = spawn(process.execPath, [CLI, 'serve'], { env: { PATH: process.env.PATH ?? '', ...fresh } });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      while (!/curl -s (\S+) -H 'Authorization: Bearer (tsk_[\w-]+)'/.test(out) || !out.includes('is listening')) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const [, url, key] = /curl -s (\S+) -H 'Authorization: Bearer (tsk_[\w-]+)'/.exec(out)!;
      assert.equal(url, `http://127.0.0.1:${port}/v1/translate`);
      assert.match(out, /pseudo/);
      const response = await fetch(url!, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'Hello, world!', targets: ['fr', 'de'] }),
      });
      assert.equal(response.status, 200);
      assert.equal(((await response.json()) as { translations: Record<string, string> }).translations.fr, 'Ĥéļļö, ŵöŕļḋ!');
      assert.ok(existsSync(join(dir, 'first', 'run.db')), 'the SQLite database lives where DATABASE_URL says');
      // The message links the playground and the API reference, and both answer at those addresses.
      const playground = /Playground: (\S+)/.exec(out)?.[1];
      const reference = /API reference: (\S+)/.exec(out)?.[1];
      assert.equal(playground, `http://127.0.0.1:${port}/`);
      assert.equal(reference, `http://127.0.0.1:${port}/docs`);
      for (const page of [playground!, reference!]) {
        const answer = await fetch(page);
        assert.equal(answer.status, 200, page);
        assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
      }
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0);
    assert.match(out, /shut down cleanly/);

    // A second start finds the key and prints none.
    const second = spawn(process.execPath, [CLI, 'serve'], { env: { PATH: process.env.PATH ?? '', ...fresh } });
    let secondOut = '';
    second.stdout.on('data', (chunk: Buffer) => (secondOut += chunk.toString()));
    const secondExit = new Promise<number | null>((r) => second.on('exit', (code) => r(code)));
    while (!secondOut.includes('is listening')) await new Promise((r) => setTimeout(r, 50));
    second.kill('SIGINT');
    assert.equal(await secondExit, 0);
    assert.ok(!secondOut.includes('tsk_'), 'the key is shown only once');
  });
});
