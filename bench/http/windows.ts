/**
 * p99 over time: the service under a steady paced load (bench/http/paced.ts), reported in
 * windows of a few seconds with what its garbage collector did in each and its longest
 * event-loop delay (from its GET /metrics; a stall of the service itself shows there, one
 * of the network, Redis or the machine does not). run.ts gives one p99 for the whole half-rate run; this shows which windows
 * make it — a full collection, a cache refilling — as docs/decisions/0046 needed.
 * The service is `node DIR/dist/cli.js serve` on a new database: SQLite with limits off
 * and an enterprise key, or PostgreSQL + Redis with limits on and 3,000 `scale` keys in
 * rotation, as run.ts. Needs `npm run build` in DIR.
 *
 *   npx tsx bench/http/windows.ts [DIR=.] [--backend=postgres] [--rate=6000] [--windows=20] [--seconds=2]
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createKey } from '../../src/accounts/keys.js';
import { parseDatabaseUrl } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createTestDatabase, TEST_REDIS_URL, type Backend } from '../../test/helpers/backends.js';
import { pacedLoad } from './paced.js';
import { BENCH_METRICS_TOKEN, freePort, gcFigures, stop, waitForHealth } from './processes.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const DIR = resolve(args.find((a) => !a.startsWith('--')) ?? '.');
const BACKEND = option('backend', 'sqlite') as Backend;
const RATE = Number(option('rate', '6000'));
const WINDOWS = Number(option('windows', '20'));
const SECONDS = Number(option('seconds', '2'));
const LIMITED_KEYS = 3_000;
const BODY = JSON.stringify({ content: 'The weather is lovely today, so we are going for a walk.', targets: ['fr'] });

const created = await createTestDatabase(BACKEND);
const database = openDatabase(parseDatabaseUrl(created.url));
await migrateToLatest(database.db);
const limited = BACKEND === 'postgres';
const keys: string[] = [];
for (let i = 0; i < (limited ? LIMITED_KEYS : 1); i++) keys.push((await createKey(database.db, { tier: limited ? 'scale' : 'enterprise', now: Date.now() })).key);
await database.close();

const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const limits = limited ? { RATE_LIMIT_STORE: 'redis', REDIS_URL: TEST_REDIS_URL } : { RATE_LIMIT_STORE: 'none' };
const env = { ...process.env, DATABASE_URL: created.url, PORT: String(port), HOST: '127.0.0.1', MALLOC_ARENA_MAX: '2', METRICS_TOKEN: BENCH_METRICS_TOKEN, ...limits };
const service = spawn(process.execPath, [join(DIR, 'dist/cli.js'), 'serve', '--no-migrate'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
try {
  await waitForHealth(`${origin}/v1/health`, service);
  const started = Date.now();
  let next = 0;
  const request = () => ({
    path: '/v1/translate',
    headers: { authorization: `Bearer ${keys[next++ % keys.length]}`, 'content-type': 'application/json' },
    body: BODY,
  });
  const rows = [];
  for (let window = 0; window < WINDOWS; window++) {
    const before = await gcFigures(origin);
    const result = await pacedLoad({ origin, rate: RATE, seconds: SECONDS, connections: 50, request });
    const after = await gcFigures(origin);
    rows.push({
      's since start': Math.round((Date.now() - started) / 1000),
      'p50 ms': result.p50.toFixed(1),
      'p99 ms': result.p99.toFixed(1),
      'max ms': result.max.toFixed(1),
      'pacer late ms': result.pacerLateMs.toFixed(1),
      'young collections': after.minorCount - before.minorCount,
      'full collections': after.majorCount - before.majorCount,
      'old generation MB': Math.round(after.oldSpaceMb),
      'longest loop delay ms': after.loopDelayMaxMs.toFixed(1),
    });
  }
  console.log(`${BACKEND}, ${RATE} req/s paced, ${SECONDS} s windows (the first holds the start: connections, the detector's load)`);
  console.table(rows);
} finally {
  await stop(service);
  await created.drop();
}
