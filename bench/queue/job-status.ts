/**
 * GET /v1/jobs/:id over real HTTP with 100,000 pending jobs in the table, for a job in
 * the middle of the queue (queue_position ≈ 50,000, counted exactly per docs/contract.md §3.11)
 * and one at the end (≈ 100,000). Sequential requests: this is latency, not throughput.
 *
 *   npx tsx bench/queue/job-status.ts [sqlite,postgres]
 */
import { sql } from 'kysely';
import { createKey } from '../../src/accounts/keys.js';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { createServices } from '../../src/services.js';
import { backendsFromArgs, benchDatabase, insertPendingJobs, percentiles, silent } from './setup.js';

const PENDING = 100_000;
const REQUESTS = 500;

for (const backend of backendsFromArgs()) {
  const bench = await benchDatabase(backend);
  const services = await createServices(loadConfig({ DATABASE_URL: bench.url, RATE_LIMIT_STORE: 'none', LOG_LEVEL: 'silent' }), { logger: silent });
  const { db } = services.database;
  const created = await createKey(db, { tier: 'enterprise', now: Date.now() });
  const filled = performance.now();
  await insertPendingJobs(services.database, created.userId, PENDING, 'Hello, world!', Date.now() - PENDING);
  // Steady state: autovacuum would have set the visibility map by now (index-only scans).
  if (backend === 'postgres') await sql`vacuum analyze jobs`.execute(db);
  else await sql`analyze`.execute(db);
  const fillMs = Math.round(performance.now() - filled);
  const ids = await db.selectFrom('jobs').select('id').orderBy('created_at').execute();
  const middle = ids[PENDING / 2]!.id;
  const last = ids.at(-1)!.id;

  const app = await buildApp(services);
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const headers = { authorization: `Bearer ${created.key}` };
  for (const [label, id] of [['middle', middle], ['last', last]] as const) {
    const samples: number[] = [];
    let position = 0;
    for (let i = 0; i < REQUESTS + 50; i++) {
      const started = performance.now();
      const response = await fetch(`${address}/v1/jobs/${id}`, { headers });
      const body = (await response.json()) as { queue_position: number };
      if (i >= 50) samples.push(performance.now() - started);
      position = body.queue_position;
    }
    console.log(JSON.stringify({ bench: 'GET /jobs/:id (ms)', backend, pending: PENDING, job: label, queue_position: position, fillMs, ...percentiles(samples) }));
  }
  await app.close();
  await services.close();
  await bench.drop();
}
