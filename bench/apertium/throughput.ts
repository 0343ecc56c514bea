/**
 * Apertium throughput: segments per second for a 2,000-string catalog en→es, through
 * the `apertium` engine (long-lived null-flush pipelines, texts streamed through them)
 * next to a process per call (`apertium -u eng-spa FILE`, the script as the issue ran
 * it by hand, one string per run). Both in the same run, so the ratio holds however
 * loaded the machine is.
 *
 * The catalog is the msgids of the gettext catalogs in ../shared/locale-corpus/po
 * (real projects' UI strings), read in place with our po reader, first 2,000 segments.
 * A process per call is timed on the first `--per-call N` of them (default 60: it takes
 * a few hundred milliseconds a string) and its rate is extrapolated.
 *
 *   npx tsx bench/apertium/throughput.ts [--per-call N] [--concurrency N]
 *
 * Results: docs/benchmarks.md ("Apertium").
 */
import { Tokenizer } from '../../src/tokens.js';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../../src/config.js';
import { createApertiumEngine } from '../../src/engines/apertium/create.js';
import type { EngineSegment } from '../../src/engines/engine.js';
import { getAdapter } from '../../src/formats/index.js';

const run = promisify(execFile);
const CORPUS = join(import.meta.dirname, '..', '..', '..', 'shared', 'locale-corpus', 'po');
const CATALOG_SIZE = 2000;
const EN = { code: 'en', name: 'English', rtl: false };
const ES = { code: 'es', name: 'Spanish', rtl: false };

function catalog(): EngineSegment[] {
  const segments: EngineSegment[] = [];
  for (const name of readdirSync(CORPUS).sort()) {
    const doc = getAdapter('po').extract(readFileSync(join(CORPUS, name), 'utf8'));
    for (const segment of doc.segments) {
      if (segments.length === CATALOG_SIZE) return segments;
      segments.push({ id: `s${segments.length}`, text: segment.text });
    }
  }
  return segments;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: number): number => {
    const at = args.indexOf(name);
    return at >= 0 ? Number(args[at + 1]) : fallback;
  };
  const perCall = option('--per-call', 60);
  const concurrency = option('--concurrency', 2);
  const segments = catalog();
  const words = segments.reduce((sum, s) => sum + s.text.split(/\s+/).length, 0);
  console.log(`catalog: ${segments.length} segments, ${words} words, from ${CORPUS}; ${cpus().length} cores; load ${readFileSync('/proc/loadavg', 'utf8').trim()}`);

  const config = loadConfig({ MODEL_STANDARD: 'apertium', ENGINE_CONCURRENCY: String(concurrency) });
  const engine = createApertiumEngine(config, { maxInputTokens: 1e9, maxOutputTokens: 1e9 }, new Tokenizer());
  // One warm-up call: the pipelines' start (loading the pair's transducers) is paid once per process.
  const warmStart = performance.now();
  await engine.translate({ segments: segments.slice(0, 1), targets: [ES], source: EN, format: 'po' });
  const startMs = performance.now() - warmStart;

  // The engine as the planner calls it: chunks of 100 segments, `concurrency` at once.
  const chunks: EngineSegment[][] = [];
  for (let i = 0; i < segments.length; i += 100) chunks.push(segments.slice(i, i + 100));
  const started = performance.now();
  await Promise.all(chunks.map((chunk) => engine.translate({ segments: chunk, targets: [ES], source: EN, format: 'po' })));
  const engineSeconds = (performance.now() - started) / 1000;
  engine.close();

  // A process per call: the apertium script on a file, one string each.
  const dir = mkdtempSync(join(tmpdir(), 'apertium-bench-'));
  const sample = segments.slice(0, perCall);
  const perCallStarted = performance.now();
  for (const [i, segment] of sample.entries()) {
    const file = join(dir, `${i}.txt`);
    writeFileSync(file, segment.text.replace(/<\/?g\d+>|<x\d+\/>/g, ' '));
    await run('apertium', ['-u', 'eng-spa', file]);
  }
  const perCallSeconds = (performance.now() - perCallStarted) / 1000;
  rmSync(dir, { recursive: true, force: true });

  const engineRate = segments.length / engineSeconds;
  const perCallRate = sample.length / perCallSeconds;
  console.log('| how | segments | seconds | segments/s |');
  console.log('|---|---:|---:|---:|');
  console.log(`| apertium engine, long-lived pipelines (${concurrency}), chunks of 100 | ${segments.length} | ${engineSeconds.toFixed(2)} | ${engineRate.toFixed(0)} |`);
  console.log(`| a process per call (\`apertium -u eng-spa FILE\`) | ${sample.length} | ${perCallSeconds.toFixed(2)} | ${perCallRate.toFixed(1)} |`);
  console.log(`\nratio: ${(engineRate / perCallRate).toFixed(0)}× ; a pipeline's first start: ${startMs.toFixed(0)} ms; load after ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
}

await main();
