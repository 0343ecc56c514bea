/**
 * Latency bench: the service as users run it (a child process, `translate-service
 * serve`, MODEL_STANDARD=openai:… and OPENAI_BASE_URL pointing at a fake model that
 * writes at a set speed), timed on documents whose answers take many output tokens.
 * Each case is judged against its physical limit: the time to first token plus the
 * output tokens it needed, written by `concurrency` calls at once at the model's speed.
 * Next to it, the plan against the ideal: calls, output tokens per call (smallest and
 * largest), and when the first call started after the request was sent.
 *
 *   npx tsx bench/latency/run.ts                 # every case, 400 ms TTFT, 80 tokens/s (~30 minutes)
 *   npx tsx bench/latency/run.ts --quick         # 10× faster model, 10k-token markdown (a few minutes)
 *   npx tsx bench/latency/run.ts --only small,json,stream,many
 *   npx tsx bench/latency/run.ts --only json --root /tmp/main-checkout   # another checkout's service, same bench
 *   npx tsx bench/latency/run.ts --only small,json --repeat 3            # each case three times in a row
 *
 * Results are in docs/benchmarks.md ("Latency").
 */
import { fileURLToPath } from 'node:url';
import type { EngineLanguage } from '../../src/engines/engine.js';
import { SYSTEM_PROMPT, answerSchema, buildUserMessage } from '../../src/engines/prompt.js';
import type { Format } from '../../src/formats/format.js';
import { getAdapter } from '../../src/formats/index.js';
import { findLanguage } from '../../src/languages.js';
import { countTokens } from '../../test/helpers/tokenizer.js';
import { batchItems, fewStrings, manyStringsFile, markdownGuide, uiStringsFile } from './documents.js';
import { startFakeModel, type FakeModel } from './fake-model.js';
import { forgetMemory, post, postStream, startService, type Service } from './service.js';

const quick = process.argv.includes('--quick');
const argument = (name: string): string | undefined => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
};
const only = argument('--only') ? new Set(argument('--only')!.split(',')) : undefined;
/** Each case this many times in a row (one row each): a single request on a loaded machine is one sample of its wait. */
const REPEAT = Math.max(1, Number(argument('--repeat') ?? 1));
const ROOT = argument('--root') ?? fileURLToPath(new URL('../..', import.meta.url));
const TTFT_MS = quick ? 40 : 400;
const TOKENS_PER_SECOND = quick ? 800 : 80;
const MARKDOWN_TOKENS = quick ? 10_000 : 40_000;
/** CALL_OUTPUT_BUDGET_TOKENS's default: the ideal plan's calls are no larger. */
const CALL_BUDGET = 1500;

const TARGETS_36 = 'ar bg cs da de el en es et fa fi fr he hi hu id it ja ko lt lv nb nl pl pt ro ru sk sl sv th tr uk ur vi zh'.split(' ');
const targets = (count: number): string[] => TARGETS_36.slice(0, count);

interface Case {
  readonly name: string;
  readonly group: string;
  /** Runs the request; returns when the first target arrived, for streamed cases. */
  readonly run: (service: Service) => Promise<number | void>;
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
  readonly smallestCall: number;
  readonly largestCall: number;
  readonly idealCalls: number;
  readonly firstCallMs: number;
  readonly firstTargetSeconds: number | undefined;
  readonly maxInFlight: number;
  readonly meanInFlight: number;
  readonly input: number;
  readonly cached: number;
  readonly output: number;
  readonly oneCallInput: number;
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
  await forgetMemory(service);
  model.reset();
  const started = performance.now();
  const firstTarget = await test.run(service);
  const ended = performance.now();
  const seconds = (ended - started) / 1000;
  const busy = model.provider.spans.reduce((sum, span) => sum + ((span.end ?? ended) - span.start), 0);
  const { calls, inputTokens, cachedTokens, outputTokens } = model.totals;
  const outputs = model.calls.map((call) => call.output);
  const slots = service.concurrency;
  return {
    name: test.name,
    concurrency: slots,
    seconds,
    limit: TTFT_MS / 1000 + outputTokens / (slots * TOKENS_PER_SECOND),
    calls,
    smallestCall: Math.min(...outputs),
    largestCall: Math.max(...outputs),
    // Every slot busy with equal calls, in as many rounds as the call budget needs.
    idealCalls: slots * Math.ceil(outputTokens / (slots * CALL_BUDGET)),
    firstCallMs: Math.min(...model.calls.map((call) => call.at)) - started,
    firstTargetSeconds: typeof firstTarget === 'number' ? (firstTarget - started) / 1000 : undefined,
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

function streamCase(group: string, name: string, content: string, format: Format, count: number): Case {
  return {
    name,
    group,
    documents: [{ content, format }],
    targets: targets(count),
    run: async (service) => {
      const times = await postStream(service, { content, format, targets: targets(count) });
      if (times.targets.length !== count) throw new Error(`${name}: ${times.targets.length} of ${count} targets came back`);
      return times.targets[0]!;
    },
  };
}

const json = uiStringsFile();
const few = fewStrings();
const many = manyStringsFile(200);
const markdown = markdownGuide(MARKDOWN_TOKENS);
const items = batchItems(100);

const cases: Case[] = [
  documentCase('small', 'JSON, 5 strings → 1 target', few, 'json', 1),
  documentCase('json', 'JSON UI file (30 strings) → 1 target', json, 'json', 1),
  documentCase('json', 'JSON UI file → 10 targets', json, 'json', 10),
  documentCase('json', 'JSON UI file → 36 targets', json, 'json', 36),
  // The one-target request the stream is compared with, in the same run.
  documentCase('stream', 'JSON UI file → 1 target (reference for the stream)', json, 'json', 1),
  streamCase('stream', 'stream: JSON UI file → 36 targets', json, 'json', 36),
  documentCase('many', 'JSON, 200 strings → 3 targets', many, 'json', 3),
  documentCase('markdown', `markdown guide (~${MARKDOWN_TOKENS / 1000}k tokens) → 1 target`, markdown, 'markdown', 1),
  documentCase('markdown5', 'markdown guide → 5 targets', markdown, 'markdown', 5),
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

/**
 * A first request after start-up, not counted: it loads what a running service has
 * loaded already (the tokenizer's and the detector's tables, the document workers). Its
 * first call's delay is printed, since a request that starts a service pays it.
 */
async function warmUp(model: FakeModel, service: Service): Promise<void> {
  model.reset();
  const started = performance.now();
  await post(service, '/translate', { content: manyStringsFile(40), format: 'json', targets: ['de', 'fr'] });
  const firstCall = Math.min(...model.calls.map((call) => call.at)) - started;
  console.error(`warm-up @${service.concurrency}: ${((performance.now() - started) / 1000).toFixed(1)} s, first call after ${firstCall.toFixed(0)} ms`);
}

const model = await startFakeModel({ ttftMs: TTFT_MS, tokensPerSecond: TOKENS_PER_SECOND });
const rows: Row[] = [];
const report = (row: Row) => {
  rows.push(row);
  const first = row.firstTargetSeconds === undefined ? '' : `, first target ${row.firstTargetSeconds.toFixed(2)} s`;
  console.error(
    `${row.name} @${row.concurrency}: ${row.seconds.toFixed(2)} s (limit ${row.limit.toFixed(2)} s, ${(row.seconds / row.limit).toFixed(2)}×)${first}, ${row.calls} calls of ${row.smallestCall}–${row.largestCall} tokens, first after ${row.firstCallMs.toFixed(0)} ms`,
  );
};
console.error(`service from ${ROOT}`);
for (const [concurrency, list] of [
  [8, cases],
  [36, wideCases],
] as const) {
  const selected = list.filter((test) => !only || only.has(test.group));
  if (selected.length === 0) continue;
  const service = await startService(ROOT, model, concurrency);
  try {
    await warmUp(model, service);
    for (const test of selected) for (let round = 0; round < REPEAT; round++) report(await measure(model, service, test));
  } finally {
    await service.stop();
  }
}
await model.close();

const percent = (part: number, whole: number) => `${Math.round((100 * part) / whole)}%`;
console.log(`TTFT ${TTFT_MS} ms, ${TOKENS_PER_SECOND} output tokens/s per call, answers 1.5× the source tokens; service from ${ROOT}\n`);
console.log(
  '| case | slots | wall | limit | wall ÷ limit | calls (ideal) | output per call, min–max (ideal) | first call after | from the first call ÷ limit | in flight (max / mean) | input | cached | output | one-call plan input | input ÷ one-call |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const row of rows) {
  const ideal = Math.round(row.output / row.idealCalls);
  console.log(
    `| ${row.name} | ${row.concurrency} | ${row.seconds.toFixed(2)} s | ${row.limit.toFixed(2)} s | ${(row.seconds / row.limit).toFixed(2)} | ${row.calls} (${row.idealCalls}) | ${row.smallestCall}–${row.largestCall} (${ideal}) | ${row.firstCallMs.toFixed(0)} ms | ${(row.seconds - row.firstCallMs / 1000) / row.limit >= 0 ? ((row.seconds - row.firstCallMs / 1000) / row.limit).toFixed(2) : '–'} | ${row.maxInFlight} / ${row.meanInFlight.toFixed(1)} | ${row.input} | ${row.cached} (${percent(row.cached, row.input)}) | ${row.output} | ${row.oneCallInput} | ${(row.input / row.oneCallInput).toFixed(2)} |`,
  );
}
/** Issue 36's bound: every case within this many times its limit. */
const WITHIN = 1.25;
const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
console.log('');
for (const name of [...new Set(rows.map((row) => row.name))]) {
  const ratios = rows.filter((row) => row.name === name).map((row) => row.seconds / row.limit);
  const inside = ratios.filter((ratio) => ratio <= WITHIN).length;
  console.log(
    `${name}: wall ÷ limit ${median(ratios).toFixed(2)} (median of ${ratios.length}), ${inside} of ${ratios.length} within ${WITHIN}×${median(ratios) <= WITHIN ? '' : ' — NOT within'}`,
  );
}
const reference = rows.find((row) => row.name.startsWith('JSON UI file → 1 target (reference'));
const streamed = rows.find((row) => row.firstTargetSeconds !== undefined);
if (reference && streamed) {
  const first = streamed.firstTargetSeconds!;
  console.log(
    `\nfirst target of the 36-target stream: ${first.toFixed(2)} s, ${(first / reference.seconds).toFixed(2)}× the one-target request (${reference.seconds.toFixed(2)} s); the whole stream ${streamed.seconds.toFixed(1)} s`,
  );
}
