/**
 * The built service as a real process (`node dist/cli.js serve`) on a fresh database of
 * either backend, and the CLI run as other processes against the same database — for
 * behaviour that only shows between processes (a key revoked from the command line, a
 * crash before a commit). Needs `npm run build` (npm test does it first).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { createTestDatabase, testRateLimitEnv, type Backend } from './backends.js';
import { freePort } from './net.js';

const CLI = resolve('dist/cli.js');

export interface Served {
  readonly base: string;
  readonly databaseUrl: string;
  readonly child: ChildProcess;
  /** Runs `translate-service ...args` in another process on the same database; its stdout. */
  cli(...args: string[]): string;
  /** SIGKILL: a crash, nothing flushed or finished. */
  kill(): Promise<void>;
  /** Stops the process (if running) and drops the database. */
  close(): Promise<void>;
}

export async function startServed(backend: Backend, env: Record<string, string> = {}): Promise<Served> {
  const database = await createTestDatabase(backend);
  const base = { PATH: process.env.PATH ?? '', DATABASE_URL: database.url, LOG_LEVEL: 'warn', ...testRateLimitEnv(backend), ...env };
  const cli = (...args: string[]) => {
    const run = spawnSync(process.execPath, [CLI, ...args], { env: base, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`translate-service ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
    return run.stdout;
  };
  cli('migrate');
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, 'serve', '--no-migrate', '--no-workers'], { env: { ...base, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = `http://127.0.0.1:${port}/v1`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`serve exited early: ${errors}`);
    if (await fetch(`${url}/health`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const stop = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    base: url,
    databaseUrl: database.url,
    child,
    cli,
    kill: () => stop('SIGKILL'),
    async close() {
      await stop('SIGTERM');
      await database.drop();
    },
  };
}
