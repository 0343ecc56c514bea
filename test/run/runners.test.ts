import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';

const CLI = resolve('dist/cli.js');
const HOOK = pathToFileURL(resolve('test/helpers/record-resolves.mjs')).href;
const RECORD_RESOLVES = `data:text/javascript,import { register } from 'node:module'; register(${JSON.stringify(HOOK)});`;
const FASTIFY = /\/node_modules\/(fastify|@fastify\/[^/]+)\//;

/** The module URLs a process resolved, from the hook's `resolved <url>` lines. */
function resolvedModules(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('resolved ')).map((line) => line.slice('resolved '.length));
}

function importWithHook(module: string): string[] {
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--import', RECORD_RESOLVES, '-e', `await import(${JSON.stringify(module)})`], {
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
  return resolvedModules(result.stderr);
}

describe('the process runners', () => {
  let dir: string;
  before(() => {
    assert.ok(existsSync(CLI), 'dist/cli.js is missing: run `npm run build` (npm test does it first)');
    dir = mkdtempSync(join(tmpdir(), 'translate-runners-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the serve runner loads Fastify (so the hook sees it when it is loaded)', () => {
    const modules = importWithHook('./src/run/serve.ts');
    assert.ok(modules.some((url) => FASTIFY.test(url)), 'serve.ts resolved no fastify module');
  });

  it('the worker runner loads the job worker and nothing of Fastify', () => {
    const modules = importWithHook('./src/run/worker.ts');
    assert.ok(modules.some((url) => url.endsWith('/src/jobs/worker.ts')), 'worker.ts did not resolve src/jobs/worker.ts');
    assert.deepEqual(modules.filter((url) => FASTIFY.test(url)), []);
  });

  it('`translate-service worker` runs, stops cleanly on SIGTERM, and never loads Fastify', async () => {
    const env = { PATH: process.env.PATH ?? '', DATABASE_URL: `sqlite:${join(dir, 'worker.db')}`, LOG_LEVEL: 'info' };
    const child = spawn(process.execPath, ['--import', RECORD_RESOLVES, CLI, 'worker'], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const deadline = Date.now() + 20_000;
    while (!stdout.includes('worker is running')) {
      if (child.exitCode !== null) assert.fail(`worker exited early:\n${stdout}\n${stderr}`);
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        assert.fail(`worker did not start:\n${stdout}\n${stderr}`);
      }
      await new Promise((wait) => setTimeout(wait, 50));
    }
    child.kill('SIGTERM');
    assert.equal(await exited, 0, stdout + stderr);
    const modules = resolvedModules(stderr);
    assert.ok(modules.some((url) => url.endsWith('/dist/run/worker.js')), 'the worker command did not load dist/run/worker.js');
    assert.deepEqual(modules.filter((url) => FASTIFY.test(url)), []);
  });
});
