/**
 * A real translate-service (`node dist/cli.js serve`, pseudo engine, in-process job
 * workers) on a backend's fresh database, behind a counting proxy: every request the
 * localize commands make passes through it and is recorded with its body, so a test
 * counts requests where they arrive — not by what the command says it did.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { createTestDatabase, testRateLimitEnv, type Backend, type TestDatabase } from '../helpers/backends.js';
import { freePort } from '../helpers/net.js';

export const CLI = resolve('dist/cli.js');

export interface RecordedRequest {
  readonly method: string;
  /** Path and query, e.g. /v1/translate/batch. */
  readonly url: string;
  readonly body: string;
}

export interface ServedApi {
  /** The proxy's base URL, what the commands are given as TRANSLATE_API_URL. */
  readonly apiUrl: string;
  readonly apiKey: string;
  /** Everything that reached the proxy, in arrival order. */
  readonly requests: RecordedRequest[];
  stop(): Promise<void>;
}

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built CLI as a child process without blocking this process (the proxy lives here). */
export function runCli(args: readonly string[], options: { cwd?: string; env?: Record<string, string>; nodeArgs?: readonly string[] } = {}): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI, ...args], {
      cwd: options.cwd ?? process.cwd(),
      env: { PATH: process.env.PATH ?? '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

async function waitForHealth(base: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) assert.fail(`the server exited early:\n${output()}`);
    try {
      if ((await fetch(`${base}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) assert.fail(`the server did not answer /health:\n${output()}`);
    await new Promise((wait) => setTimeout(wait, 100));
  }
}

function countingProxy(target: string, requests: RecordedRequest[]): Server {
  return createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: request.method!, url: request.url!, body });
      try {
        const headers = new Headers();
        for (const name of ['authorization', 'content-type']) {
          const value = request.headers[name];
          if (typeof value === 'string') headers.set(name, value);
        }
        const answer = await fetch(`${target}${request.url}`, {
          method: request.method!,
          headers,
          ...(request.method === 'GET' || request.method === 'HEAD' ? {} : { body }),
        });
        const text = await answer.text();
        const passed: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (!['content-length', 'transfer-encoding', 'connection', 'content-encoding'].includes(name)) passed[name] = value;
        });
        response.writeHead(answer.status, passed).end(text);
      } catch (error) {
        response.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'proxy_error', message: String(error) }));
      }
    });
  });
}

export async function startServedApi(backend: Backend): Promise<ServedApi> {
  const database: TestDatabase = await createTestDatabase(backend);
  const port = await freePort();
  const env = { DATABASE_URL: database.url, PORT: String(port), LOG_LEVEL: 'warn', ...testRateLimitEnv(backend) };
  const created = await runCli(['keys', 'create', '--tier', 'scale', '--json'], { env });
  assert.equal(created.code, 0, created.stderr);
  const apiKey = (JSON.parse(created.stdout) as { key: string }).key;

  const server = spawn(process.execPath, [CLI, 'serve'], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((done) => server.on('exit', () => done()));
  const direct = `http://127.0.0.1:${port}`;
  await waitForHealth(`${direct}/v1`, server, () => output);

  const requests: RecordedRequest[] = [];
  const proxy = countingProxy(direct, requests);
  const proxyPort = await freePort();
  await new Promise<void>((done) => proxy.listen(proxyPort, '127.0.0.1', done));
  return {
    apiUrl: `http://127.0.0.1:${proxyPort}/v1`,
    apiKey,
    requests,
    async stop() {
      await new Promise<void>((done) => proxy.close(() => done()));
      server.kill('SIGTERM');
      await exited;
      await database.drop();
    },
  };
}

/** The pseudo engine's marks removed: what the source was (docs/contract.md §2). */
export function unmark(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f\u202b\u202c]/g, '');
}
