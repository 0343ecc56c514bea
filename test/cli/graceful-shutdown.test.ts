import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../helpers/net.js';
import SqliteDatabase from 'better-sqlite3';
import { echoTranslator, startFakeProvider, type FakeProvider } from '../helpers/fake-provider.js';

const CLI = resolve('dist/cli.js');

interface Served {
  child: ChildProcess;
  base: string;
  key: string;
  dbPath: string;
  output: () => string;
  exited: Promise<number | null>;
}

async function serve(dir: string, provider: FakeProvider, env: Record<string, string>): Promise<Served> {
  const dbPath = join(dir, `${Math.random().toString(36).slice(2)}.db`);
  const base = { PATH: process.env.PATH ?? '', DATABASE_URL: `sqlite:${dbPath}`, LOG_LEVEL: 'info' };
  const created = spawnSync(process.execPath, [CLI, 'keys', 'create', '--tier', 'scale', '--json'], { env: base, encoding: 'utf8' });
  const { key } = JSON.parse(created.stdout) as { key: string };
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: {
      ...base,
      PORT: String(port),
      MODEL_STANDARD: 'openai:fake-model',
      OPENAI_BASE_URL: provider.baseUrl,
      OPENAI_API_KEY: 'test',
      ...env,
    },
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  while (!out.includes('is listening')) {
    if (child.exitCode !== null) throw new Error(`serve exited early:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, base: `http://127.0.0.1:${port}/v1`, key, dbPath, output: () => out, exited };
}

function jobRows(dbPath: string): Array<{ status: string; attempts: number; locked_by: string | null }> {
  const db = new SqliteDatabase(dbPath, { readonly: true });
  try {
    return db.prepare('select status, attempts, locked_by from jobs').all() as never;
  } finally {
    db.close();
  }
}

describe('shutting down on SIGTERM', () => {
  let dir: string;
  let provider: FakeProvider;
  before(async () => {
    assert.ok(existsSync(CLI), 'dist/cli.js is missing: run `npm run build` (npm test does it first)');
    dir = mkdtempSync(join(tmpdir(), 'translate-shutdown-'));
    provider = await startFakeProvider();
  });
  after(async () => {
    await provider.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finishes the in-flight request and the claimed job within the grace period, then exits 0', async () => {
    const slow = echoTranslator({ input: 10, output: 20 });
    provider.fallback((request, index) => ({ ...(slow(request, index) as object), delayMs: 1_500 }) as never);
    const served = await serve(dir, provider, { SHUTDOWN_GRACE_SECONDS: '20' });
    const headers = { authorization: `Bearer ${served.key}`, 'content-type': 'application/json' };
    const job = await fetch(`${served.base}/jobs`, { method: 'POST', headers, body: JSON.stringify({ content: 'A job', targets: ['fr'] }) });
    assert.equal(job.status, 202);
    const inFlight = fetch(`${served.base}/translate`, { method: 'POST', headers, body: JSON.stringify({ content: 'Hello', targets: ['de'] }) });
    while (provider.requests.length < 2) await new Promise((r) => setTimeout(r, 20));

    served.child.kill('SIGTERM');
    const response = await inFlight;
    assert.equal(response.status, 200, served.output());
    assert.equal(((await response.json()) as { translations: Record<string, string> }).translations.de, '[de] Hello');
    assert.equal(await served.exited, 0, served.output());
    assert.deepEqual(jobRows(served.dbPath).map((r) => r.status), ['completed']);
  });

  it('returns a job it could not finish to pending, with its attempt refunded, when the grace period runs out', async () => {
    provider.fallback(() => ({ hang: true }));
    const served = await serve(dir, provider, { SHUTDOWN_GRACE_SECONDS: '1' });
    const headers = { authorization: `Bearer ${served.key}`, 'content-type': 'application/json' };
    const before = provider.requests.length;
    const job = await fetch(`${served.base}/jobs`, { method: 'POST', headers, body: JSON.stringify({ content: 'Never answered', targets: ['fr'] }) });
    assert.equal(job.status, 202);
    while (provider.requests.length === before) await new Promise((r) => setTimeout(r, 20));

    served.child.kill('SIGTERM');
    assert.equal(await served.exited, 0, served.output());
    assert.deepEqual(jobRows(served.dbPath), [{ status: 'pending', attempts: 0, locked_by: null }]);
  });

  it('writes every log line before it exits: the last requests\' access lines, then "shut down cleanly" last', async () => {
    provider.fallback(echoTranslator({ input: 10, output: 20 }));
    const served = await serve(dir, provider, { SHUTDOWN_GRACE_SECONDS: '5' });
    const headers = { authorization: `Bearer ${served.key}`, 'content-type': 'application/json' };
    // Logs are written asynchronously (docs/decisions/0031): lines logged just before the
    // signal are still queued for stdout when shutdown begins.
    const ids = Array.from({ length: 60 }, (_, i) => `flush-${i}-${Math.random().toString(36).slice(2)}`);
    const answers = await Promise.all(
      ids.map((id) =>
        fetch(`${served.base}/translate`, {
          method: 'POST',
          headers: { ...headers, 'x-request-id': id },
          body: JSON.stringify({ content: `Line ${id}`, targets: ['de'], source: 'en' }),
        }),
      ),
    );
    assert.deepEqual(answers.map((a) => a.status), ids.map(() => 200));

    served.child.kill('SIGTERM');
    assert.equal(await served.exited, 0, served.output());
    const lines = served
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; reqId?: string; res?: { statusCode: number } });
    const completed = new Set(lines.filter((l) => l.msg === 'request completed' && l.res?.statusCode === 200).map((l) => l.reqId));
    assert.deepEqual(ids.filter((id) => !completed.has(id)), [], 'every request has its access line');
    assert.equal(lines.at(-1)?.msg, 'shut down cleanly');
  });
});
