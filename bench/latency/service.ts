/**
 * The service as users run it, for the latency bench: a child process `translate-service
 * serve` from a checkout (this one, or another with `--root` to compare plans in one run),
 * pointed at the fake model, and the HTTP calls the bench makes to it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FakeModel } from './fake-model.js';

export interface Service {
  readonly url: string;
  readonly auth: string;
  readonly concurrency: number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts `node --import tsx src/cli.ts serve` in `root` with an enterprise key of a fresh SQLite database. */
export async function startService(root: string, model: FakeModel, concurrency: number): Promise<Service> {
  const dir = mkdtempSync(join(tmpdir(), 'latency-bench-'));
  const port = await freePort();
  const env = {
    ...process.env,
    DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
    HOST: '127.0.0.1',
    PORT: String(port),
    MODEL_STANDARD: 'openai:bench-model',
    OPENAI_BASE_URL: model.provider.baseUrl,
    RATE_LIMIT_STORE: 'none',
    ENGINE_CONCURRENCY: String(concurrency),
    LOG_LEVEL: 'warn',
  };
  const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: root, env, encoding: 'utf8' });
  const migrated = cli('migrate');
  if (migrated.status !== 0) throw new Error(`migrate failed: ${migrated.stderr}`);
  const created = cli('keys', 'create', '--tier', 'enterprise', '--json');
  if (created.status !== 0) throw new Error(`keys create failed: ${created.stderr}`);
  const { key } = JSON.parse(created.stdout) as { key: string };

  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}/v1`;
  for (let tries = 0; ; tries++) {
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      if (tries > 1200) throw new Error('the service did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    auth: `Bearer ${key}`,
    concurrency,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** POST over node:http: fetch gives up on headers after 300 s, and a long request may take longer. */
export async function post(service: Service, path: string, body: unknown): Promise<any> {
  const payload = JSON.stringify(body);
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = httpRequest(
      `${service.url}${path}`,
      { method: 'POST', headers: { authorization: service.auth, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
  if (status !== 200 && status !== 202) throw new Error(`${path} answered ${status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

export interface StreamTimes {
  /** performance.now() of each `translation` event's arrival, in arrival order. */
  readonly targets: number[];
  readonly done: number;
}

/** POST /translate with `Accept: text/event-stream`: when each target's event arrived, and the end. */
export async function postStream(service: Service, body: unknown): Promise<StreamTimes> {
  const payload = JSON.stringify(body);
  return new Promise<StreamTimes>((resolve, reject) => {
    const request = httpRequest(
      `${service.url}/translate`,
      {
        method: 'POST',
        headers: {
          authorization: service.auth,
          accept: 'text/event-stream',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (response) => {
        if (response.statusCode !== 200) reject(new Error(`stream answered ${response.statusCode}`));
        const targets: number[] = [];
        let text = '';
        let failed = false;
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          const now = performance.now();
          text += chunk;
          // Events end with a blank line; count the complete ones as they come.
          let end: number;
          while ((end = text.indexOf('\n\n')) >= 0) {
            const event = text.slice(0, end);
            text = text.slice(end + 2);
            if (event.startsWith('event: translation')) targets.push(now);
            if (event.startsWith('event: error')) failed = true;
          }
        });
        response.on('end', () => (failed ? reject(new Error('the stream ended with an error event')) : resolve({ targets, done: performance.now() })));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** Forgets the key's translation memory, so a case translates everything afresh. */
export async function forgetMemory(service: Service): Promise<void> {
  const response = await fetch(`${service.url}/memory`, { method: 'DELETE', headers: { authorization: service.auth } });
  if (response.status !== 204) throw new Error(`DELETE /memory answered ${response.status}`);
}
