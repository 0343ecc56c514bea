/**
 * p99 over time: the service under a steady paced load (bench/http/paced.ts), reported in
 * windows of a few seconds with what its garbage collector did in each and its longest
 * event-loop delay (from its GET /metrics; a stall of the service itself shows there, one
 * of the network, Redis or the machine does not). run.ts gives one p99 for the whole
 * half-rate run; this shows which windows make it — a full collection, a cache refilling —
 * as docs/decisions/0046 needed.
 * The service is started as compare-builds.ts starts it (build-service.ts). Needs
 * `npm run build` in DIR.
 *
 *   npx tsx bench/http/windows.ts [DIR=.] [--backend=postgres] [--rate=6000] [--windows=20] [--seconds=2]
 */
import { resolve } from 'node:path';
import type { Backend } from '../../test/helpers/backends.js';
import { startBuildService } from './build-service.js';
import { pacedLoad } from './paced.js';
import { gcFigures } from './processes.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const DIR = resolve(args.find((a) => !a.startsWith('--')) ?? '.');
const BACKEND = option('backend', 'sqlite') as Backend;
const RATE = Number(option('rate', '6000'));
const WINDOWS = Number(option('windows', '20'));
const SECONDS = Number(option('seconds', '2'));
const BODY = JSON.stringify({ content: 'The weather is lovely today, so we are going for a walk.', targets: ['fr'] });

const service = await startBuildService(DIR, BACKEND);
try {
  const started = Date.now();
  const request = () => ({ path: '/v1/translate', headers: service.headers(), body: BODY });
  const rows = [];
  for (let window = 0; window < WINDOWS; window++) {
    const before = await gcFigures(service.origin);
    const result = await pacedLoad({ origin: service.origin, rate: RATE, seconds: SECONDS, connections: 50, request });
    const after = await gcFigures(service.origin);
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
  await service.close();
}
