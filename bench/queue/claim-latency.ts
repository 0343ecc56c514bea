/**
 * Time from enqueue to claim with an idle worker: insert the job and notify, exactly as
 * POST /jobs does, then wait for the worker's `job:start`. On PostgreSQL the wake-up is
 * LISTEN/NOTIFY through the server (the enqueuing pool and the worker's LISTEN
 * connection are different connections); on SQLite the in-process nudge.
 *
 *   npx tsx bench/queue/claim-latency.ts [sqlite,postgres]
 */
import { ChangeFeed } from '../../src/cache/change-feed.js';
import { PseudoEngine } from '../../src/engines/pseudo.js';
import { Tokenizer } from '../../src/tokens.js';
import { createJobDialect } from '../../src/jobs/create-dialect.js';
import { insertJob } from '../../src/jobs/queue.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { TranslationMemory } from '../../src/memory/translation-memory.js';
import { backendsFromArgs, benchDatabase, percentiles, silent } from './setup.js';

const SAMPLES = 300;

for (const backend of backendsFromArgs()) {
  const bench = await benchDatabase(backend);
  const { db } = bench.database;
  const dialect = createJobDialect(bench.database, silent);
  const engine = new PseudoEngine({ maxInputTokens: 6_000, maxOutputTokens: 16_384 }, new Tokenizer());
  const worker = new JobWorker({
    db,
    memory: new TranslationMemory(db, { feed: new ChangeFeed(), clock: Date.now }),
    dialect,
    engines: { standard: engine, advanced: engine },
    logger: silent,
    concurrency: 4,
    leaseMs: 60_000,
    retentionMs: 86_400_000,
    // Longer than the run: every claim below came from a wake-up, not the fallback poll.
    pollIntervalMs: 600_000,
  });
  await worker.start();
  const userId = await bench.userId();
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES + 20; i++) {
    await new Promise((r) => setTimeout(r, 5)); // the worker is idle again
    const started = performance.now();
    const claimed = new Promise<void>((resolve) => worker.once('job:start', () => resolve()));
    await insertJob(db, { userId, request: { content: 'Hello, world!', targets: ['fr'], model: 'standard' }, now: Date.now() });
    await dialect.notify(db);
    await claimed;
    if (i >= 20) samples.push(performance.now() - started); // the first ones warm up connections and JIT
  }
  console.log(JSON.stringify({ bench: 'enqueue-to-claim (ms)', backend, samples: SAMPLES, ...percentiles(samples) }));
  await worker.stop(5_000);
  await bench.drop();
}
