/**
 * Latency bench: the service as users run it (a child process, `translate-service
 * serve`, MODEL_STANDARD=openai:… and OPENAI_BASE_URL pointing at a fake model that
 * writes at a set speed), timed on documents whose answers take many output tokens.
 * Each case is judged against its physical limit: the time to first token plus the
 * output tokens it needed, written by `concurrency` calls at once at the model's speed.
 *
 *   npx tsx bench/latency/run.ts                 # every case, 400 ms TTFT, 80 tokens/s (~30 minutes)
 *   npx tsx bench/latency/run.ts --quick         # 10× faster model, 10k-token markdown (a few minutes)
 *   npx tsx bench/latency/run.ts --only json,wide
 *
 * Results are in docs/benchmarks.md ("Latency").
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EngineLanguage } from '../../src/engines/engine.js';
import { SYSTEM_PROMPT, answerSchema, buildUserMessage } from '../../src/engines/prompt.js';
import type { Format } from '../../src/formats/format.js';
import { getAdapter } from '../../src/formats/index.js';
import { findLanguage } from '../../src/languages.js';
import { countTokens } from '../../test/helpers/tokenizer.js';
import { batchItems, markdownGuide, uiStringsFile } from './documents.js';
import { startFakeModel, type FakeModel } from './fake-model.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const quick = process.argv.includes('--quick');
const onlyArg = process.argv.indexOf('--only');
const only = onlyArg >= 0 ? new Set(process.argv[onlyArg + 1]!.split(',')) : undefined;
const TTFT_MS = quick ? 40 : 400;
const TOKENS_PER_SECOND = quick ? 800 : 80;
const MARKDOWN_TOKENS = quick ? 10_000 : 40_000;

const TARGETS_36 = 'ar bg cs da de el en es et fa fi fr he hi hu id it ja ko lt lv nb nl pl pt ro ru sk sl sv th tr uk ur vi zh'.split(' ');
const targets = (count: number): string[] => TARGETS_36.slice(0, count);

interface Service {
  readonly url: string;
  readonly auth: string;
  readonly concurrency: number;
  readonly logs: Record<string, unknown>[];
  stop(): Promise<void>;
}

interface Case {
  readonly name: string;
  readonly group: string;
  readonly run: (service: Service) => Promise<void>;
  /** Items and format as the one-call plan would send them. */
  readonly documents: readonly { content: string; format: Format }[];
  readonly targets: readonly string[];
}

interface Row {
  readonly name: string;
  readonly concurrency: number;
  readonly seconds: number;
  readonly limit: number;
  readonly calls: number;
  readonly maxInFlight: number;
  readonly meanInFlight: number;
  readonly input: number;
  readonly cached: number;
  readonly output: number;
  readonly oneCallInput: number;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startService(model: FakeModel, concurrency: number): Promise<Service> {
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
    LOG_LEVEL: 'info',
  };
  const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: ROOT, env, encoding: 'utf8' });
  const migrated = cli('migrate');
  if (migrated.status !== 0) throw new Error(`migrate failed: ${migrated.stderr}`);
  const created = cli('keys', 'create', '--tier', 'enterprise', '--json');
  if (created.status !== 0) throw new Error(`keys create failed: ${created.stderr}`);
  const { key } = JSON.parse(created.stdout) as { key: string };

  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const logs: Record<string, unknown>[] = [];
  let buffered = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line));
      } catch {
        // not a log line
      }
    }
  });
  const url = `http://127.0.0.1:${port}/v1`;
  for (let tries = 0; ; tries++) {
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      if (tries > 300) throw new Error('the service did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    auth: `Bearer ${key}`,
    concurrency,
    logs,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** POST over node:http: fetch gives up on headers after 300 s, and a long request may take longer. */
async function post(service: Service, path: string, body: unknown): Promise<any> {
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

/** Input tokens of the one-call plan: the instructions, the schema and every distinct segment once, all targets in one call. */
function oneCallInput(documents: readonly { content: string; format: Format }[], codes: readonly string[]): number {
  const languages: EngineLanguage[] = codes.map((code) => findLanguage(code)!);
  let total = countTokens(SYSTEM_PROMPT) + countTokens(JSON.stringify(answerSchema(codes)));
  const byFormat = new Map<Format, Set<string>>();
  for (const document of documents) {
    const seen = byFormat.get(document.format) ?? new Set<string>();
    for (const segment of getAdapter(document.format).extract(document.content).segments) seen.add(segment.text);
    byFormat.set(document.format, seen);
  }
  for (const [format, texts] of byFormat) {
    const segments = [...texts].map((text, i) => ({ id: String(i), text }));
    total += countTokens(buildUserMessage({ segments, targets: languages, format }));
  }
  return total;
}

async function measure(model: FakeModel, service: Service, test: Case): Promise<Row> {
  model.reset();
  const started = performance.now();
  await test.run(service);
  const ended = performance.now();
  const seconds = (ended - started) / 1000;
  const busy = model.provider.spans.reduce((sum, span) => sum + ((span.end ?? ended) - span.start), 0);
  const { calls, inputTokens, cachedTokens, outputTokens } = model.totals;
  return {
    name: test.name,
    concurrency: service.concurrency,
    seconds,
    limit: TTFT_MS / 1000 + outputTokens / (service.concurrency * TOKENS_PER_SECOND),
    calls,
    maxInFlight: model.provider.maxInFlight,
    meanInFlight: busy / (ended - started),
    input: inputTokens,
    cached: cachedTokens,
    output: outputTokens,
    oneCallInput: oneCallInput(test.documents, test.targets),
  };
}

function documentCase(group: string, name: string, content: string, format: Format, count: number): Case {
  return {
    name,
    group,
    documents: [{ content, format }],
    targets: targets(count),
    run: async (service) => {
      const result = await post(service, '/translate', { content, format, targets: targets(count) });
      if (Object.keys(result.translations).length !== count) throw new Error(`${name}: not every target came back`);
    },
  };
}

const json = uiStringsFile();
const markdown = markdownGuide(MARKDOWN_TOKENS);
const items = batchItems(100);

const cases: Case[] = [
  documentCase('json', 'JSON UI file (30 strings) → 1 target', json, 'json', 1),
  documentCase('json', 'JSON UI file → 10 targets', json, 'json', 10),
  documentCase('json', 'JSON UI file → 36 targets', json, 'json', 36),
  documentCase('markdown', `markdown guide (~${MARKDOWN_TOKENS / 1000}k tokens) → 1 target`, markdown, 'markdown', 1),
  documentCase('markdown', 'markdown guide → 5 targets', markdown, 'markdown', 5),
  {
    name: 'batch of 100 items → 3 targets',
    group: 'batch',
    documents: items,
    targets: targets(3),
    run: async (service) => {
      const result = await post(service, '/translate/batch', { items, targets: targets(3) });
      if (result.results.length !== 100 || result.results[99].id !== 'snippet-100') throw new Error('batch: results out of order');
    },
  },
  {
    name: 'job: markdown guide → 10 targets',
    group: 'job',
    documents: [{ content: markdown, format: 'markdown' }],
    targets: targets(10),
    run: async (service) => {
      const { job_id: id } = await post(service, '/jobs', { content: markdown, format: 'markdown', targets: targets(10) });
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const view = (await (await fetch(`${service.url}/jobs/${id}`, { headers: { authorization: service.auth } })).json()) as any;
        if (view.status === 'completed') return;
        if (view.status === 'failed') throw new Error(`job failed: ${view.error}`);
      }
    },
  },
];
const wideCases: Case[] = [
  documentCase('wide', 'JSON UI file → 1 target', json, 'json', 1),
  documentCase('wide', 'JSON UI file → 36 targets', json, 'json', 36),
];

const model = await startFakeModel({ ttftMs: TTFT_MS, tokensPerSecond: TOKENS_PER_SECOND });
const rows: Row[] = [];
const report = (row: Row) => {
  rows.push(row);
  console.error(
    `${row.name} @${row.concurrency}: ${row.seconds.toFixed(1)} s (limit ${row.limit.toFixed(1)} s, ${(row.seconds / row.limit).toFixed(2)}×), ${row.calls} calls, ${row.maxInFlight} max in flight`,
  );
};
for (const [concurrency, list] of [
  [8, cases],
  [36, wideCases],
] as const) {
  const selected = list.filter((test) => !only || only.has(test.group));
  if (selected.length === 0) continue;
  const service = await startService(model, concurrency);
  try {
    for (const test of selected) report(await measure(model, service, test));
  } finally {
    await service.stop();
  }
}
await model.close();

const percent = (part: number, whole: number) => `${Math.round((100 * part) / whole)}%`;
console.log(`TTFT ${TTFT_MS} ms, ${TOKENS_PER_SECOND} output tokens/s per call, answers 1.5× the source tokens\n`);
console.log('| case | slots | wall | limit | wall ÷ limit | calls | in flight (max / mean) | input | cached | output | one-call plan input | input ÷ one-call |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const row of rows) {
  console.log(
    `| ${row.name} | ${row.concurrency} | ${row.seconds.toFixed(1)} s | ${row.limit.toFixed(1)} s | ${(row.seconds / row.limit).toFixed(2)} | ${row.calls} | ${row.maxInFlight} / ${row.meanInFlight.toFixed(1)} | ${row.input} | ${row.cached} (${percent(row.cached, row.input)}) | ${row.output} | ${row.oneCallInput} | ${(row.input / row.oneCallInput).toFixed(2)} |`,
  );
}
