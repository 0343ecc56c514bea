/**
 * Event-loop responsiveness while large documents are translated (docs/benchmarks.md,
 * § Event loop under large documents). Starts the real app (SQLite, pseudo engine) on a
 * port, sends one ~2 MiB document per format into TARGETS targets (first alone, for its
 * time, then again) while GET /v1/health is polled every 10 ms, recording its latency and the event-loop delay
 * (perf_hooks.monitorEventLoopDelay). Three modes:
 *   before   — everything inline, and a pseudo engine that never yields (the old code)
 *   inline   — everything inline, with the yielding pseudo engine
 *   pooled   — large documents in the worker pool, yielding pseudo engine (the default now)
 * Then small requests: AMOUNT short POST /translate through autocannon, before vs pooled.
 * Run: npx tsx bench/event-loop/run.ts [mode ...] [--formats=markdown,json,html|none] [--targets=8] [--amount=2000]
 */
import autocannon from 'autocannon';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config.js';
import { ProviderLimits } from '../../src/engines/provider-limit.js';
import { createEngineRegistry, type EngineRegistry } from '../../src/engines/registry.js';
import { Tokenizer } from '../../src/tokens.js';
import { LARGE_DOCUMENT_CHARS } from '../../src/translation/translate-document.js';
import { startTestApp } from '../../test/helpers/app.js';
import { BlockingPseudoEngine } from './blocking-pseudo.js';
import { largeDocument } from './documents.js';

type Mode = 'before' | 'inline' | 'pooled';
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const modes = (args.filter((a) => !a.startsWith('--')) as Mode[]).length ? (args.filter((a) => !a.startsWith('--')) as Mode[]) : (['before', 'inline', 'pooled'] as Mode[]);
const formats = option('formats', 'markdown,json,html').split(',').filter((f) => f !== 'none') as ('markdown' | 'json' | 'html')[];
const TARGETS = ['fr', 'de', 'es', 'ar', 'ja', 'ru', 'pt-BR', 'zh'].slice(0, Number(option('targets', '8')));
const AMOUNT = Number(option('amount', '2000'));
const SIZE = 2 * 1024 * 1024;

function engines(mode: Mode): EngineRegistry {
  const configured = createEngineRegistry(loadConfig({}), { providerLimits: new ProviderLimits(), tokenizer: new Tokenizer() });
  if (mode !== 'before') return configured;
  return { standard: new BlockingPseudoEngine(configured.standard.budget), advanced: new BlockingPseudoEngine(configured.advanced.budget) };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const ms = (n: number) => n.toFixed(n < 10 ? 1 : 0);

async function large(mode: Mode, format: 'markdown' | 'json' | 'html', base: string, auth: string) {
  const content = largeDocument(format, SIZE);
  const body = JSON.stringify({ content, format, targets: TARGETS });
  const send = () =>
    fetch(`${base}/translate`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body });
  const aloneStarted = performance.now();
  await (await send()).arrayBuffer();
  const alone = performance.now() - aloneStarted;
  const latencies: number[] = [];
  let done = false;
  const poll = (async () => {
    while (!done) {
      const started = performance.now();
      await (await fetch(`${base}/health`)).arrayBuffer();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();
  const response = await send();
  const text = await response.text();
  const elapsed = performance.now() - started;
  delay.disable();
  done = true;
  await poll;
  if (response.status !== 200) throw new Error(`${format}: ${response.status} ${text.slice(0, 300)}`);
  latencies.sort((a, b) => a - b);
  return {
    mode,
    format,
    'alone s': (alone / 1000).toFixed(1),
    'polled s': (elapsed / 1000).toFixed(1),
    'health n': latencies.length,
    'health p50 ms': ms(pct(latencies, 50)),
    'health p99 ms': ms(pct(latencies, 99)),
    'health max ms': ms(latencies.at(-1)!),
    'loop delay p99 ms': ms(delay.percentile(99) / 1e6),
    'loop delay max ms': ms(delay.max / 1e6),
  };
}

async function small(mode: Mode, base: string, auth: string) {
  const result = await autocannon({
    url: `${base}/translate`,
    method: 'POST',
    connections: 10,
    amount: AMOUNT,
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify({ content: 'Hello, {name}! You have **3** new messages.', targets: ['fr', 'de', 'ar'] }),
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`small requests failed: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { mode, requests: result.requests.total, 'req/s': Math.round(result.requests.total / result.duration), 'p50 ms': result.latency.p50, 'p99 ms': result.latency.p99 };
}

const largeRows = [];
const smallRows = [];
for (const mode of modes) {
  const largeDocumentChars = mode === 'pooled' ? LARGE_DOCUMENT_CHARS : Number.POSITIVE_INFINITY;
  const test = await startTestApp({ engines: engines(mode), env: { RATE_LIMIT_STORE: 'none' }, largeDocumentChars });
  await test.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(test.app.server.address() as AddressInfo).port}/v1`;
  const { auth } = await test.key('enterprise');
  await small(mode, base, auth); // warm up the JIT and the connection pool
  for (const format of formats) largeRows.push(await large(mode, format, base, auth));
  smallRows.push(await small(mode, base, auth));
  await test.close();
}
console.log(`~2 MiB document into ${TARGETS.length} targets (${TARGETS.join(' ')}), GET /health every 10 ms:`);
console.table(largeRows);
console.log(`${AMOUNT} small POST /translate (3 targets), 10 connections:`);
console.table(smallRows);
