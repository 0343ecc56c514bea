/**
 * A project for the `sync` tests: a temporary folder with a translate.config.json and its
 * source files, and a real server (served-api.ts, pseudo engine) behind the counting proxy.
 * The set-up every sync test shared, in one place.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Backend } from '../helpers/backends.js';
import { runCli, startServedApi, type Run, type ServedApi } from './served-api.js';

export interface SyncProject {
  readonly api: ServedApi;
  readonly repo: string;
  /** What the CLI is run with: the proxy's URL and the key. */
  readonly env: Record<string, string>;
  write(path: string, content: string | Buffer): void;
  /** A file of the project, as UTF-8 text. */
  file(path: string): string;
  /** Runs `sync` and asserts it exits 0. */
  sync(): Promise<Run>;
  /** The contents of the translate requests sent since request number `from`, one by one or batched. */
  sentContents(from: number): string[];
  stop(): Promise<void>;
}

export async function startSyncProject(name: string, config: object, files: Readonly<Record<string, string | Buffer>>, backend: Backend = 'sqlite'): Promise<SyncProject> {
  const api = await startServedApi(backend);
  const repo = mkdtempSync(join(tmpdir(), `translate-${name}-`));
  const env = { TRANSLATE_API_URL: api.apiUrl, TRANSLATE_API_KEY: api.apiKey };
  const write = (path: string, content: string | Buffer): void => {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), content);
  };
  write('translate.config.json', `${JSON.stringify(config, null, 2)}\n`);
  for (const [path, content] of Object.entries(files)) write(path, content);
  return {
    api,
    repo,
    env,
    write,
    file: (path) => readFileSync(join(repo, path), 'utf8'),
    async sync() {
      const run = await runCli(['sync'], { cwd: repo, env });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      return run;
    },
    sentContents: (from) =>
      api.requests
        .slice(from)
        .filter((request) => request.method === 'POST')
        .flatMap((request) => {
          const body = JSON.parse(request.body) as { content?: string; items?: { content: string }[] };
          return body.items ? body.items.map((item) => item.content) : [body.content!];
        }),
    async stop() {
      await api.stop();
      rmSync(repo, { recursive: true, force: true });
    },
  };
}
