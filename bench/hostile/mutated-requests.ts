/**
 * Memory after a hostile run of mutated requests (issue 30, item 7; docs/deployment.md,
 * "Memory accounting"). Starts DIR's built service as `npm start` runs it (`serve` with
 * its workers, SQLite, the memory rate-limit store, LOG_LEVEL info to /dev/null, npm
 * start's malloc settings) on loopback, reads its RSS from /proc, and sends COUNT
 * requests, after ROUNDS rounds of every hostile shape at full size (as run.ts does):
 * COUNT requests, CONCURRENCY at a time, each mutated in what it sends:
 *   - the key: a real one of each tier, a made-up one in the key's format, another
 *     scheme, none, or junk;
 *   - the headers: made-up names and values, repeated headers, a caller's X-Request-Id,
 *     Idempotency-Key, Accept, Content-Type and Expect variants;
 *   - the route: /v1/translate (most), batch, estimate, jobs, usage, the DeepL and
 *     LibreTranslate routes, made-up paths and query strings;
 *   - the body: mutations.ts's mutated documents.
 * It prints RSS at start, its peak, right after the run and after IDLE_SECONDS idle (the
 * document workers retire after 30 s), with /proc/PID/smaps_rollup's split, and fails on
 * any 5xx or an answer outside the envelope. With --snapshot, the service writes a heap
 * snapshot (node --heapsnapshot-signal) after the idle wait, into the working directory.
 *
 * With --log=FILE the service's log goes to FILE (to find what a 5xx was).
 *
 * Run: npm run build && npx tsx bench/hostile/mutated-requests.ts [DIR=.] [--rounds=3] [--count=40000] [--concurrency=8] [--max-seconds=900] [--snapshot] [--log=FILE]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, npmStartEnv, rssMb, stop, waitForHealth } from '../http/processes.js';
import { HOSTILE_SHAPES, fitted } from '../../test/hostile/shapes.js';
import { mutatedContent, mutatedTranslateBody, seededRandom } from './mutations.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const DIR = resolve(args.find((a) => !a.startsWith('--')) ?? '.');
const COUNT = option('count', 40_000);
const CONCURRENCY = option('concurrency', 8);
const MAX_SECONDS = option('max-seconds', 900);
const ROUNDS = option('rounds', 3);
const SNAPSHOT = args.includes('--snapshot');
const LOG_FILE = args.find((a) => a.startsWith('--log='))?.slice('--log='.length);
const IDLE_SECONDS = 40;

const dir = mkdtempSync(join(tmpdir(), 'mutated-requests-'));
const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`, ...npmStartEnv(DIR) };
const keyOf = (tier: string): string => {
  const created = spawnSync(process.execPath, [`${DIR}/dist/cli.js`, 'keys', 'create', '--tier', tier, '--json'], { env, encoding: 'utf8' });
  if (created.status !== 0) throw new Error(`keys create failed (did you npm run build in ${DIR}?): ${created.stderr}`);
  return (JSON.parse(created.stdout) as { key: string }).key;
};
const realKeys = ['free', 'starter', 'scale', 'enterprise'].map(keyOf);
const port = await freePort();
const nodeOptions = SNAPSHOT ? ['--heapsnapshot-signal=SIGUSR2'] : [];
const server = spawn(process.execPath, [...nodeOptions, `${DIR}/dist/cli.js`, 'serve'], {
  env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
  stdio: ['ignore', LOG_FILE ? openSync(LOG_FILE, 'w') : 'ignore', 'inherit'],
  cwd: process.cwd(),
});
await waitForHealth(`http://127.0.0.1:${port}/v1/health`, server);
await new Promise((r) => setTimeout(r, 500));

const rss = () => Math.round(rssMb(server.pid!));
let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, rss())), 100);

const random = seededRandom(7);
const pick = <T>(items: readonly T[]): T => items[random(items.length)]!;
const junk = (length: number) => Array.from({ length }, () => String.fromCharCode(33 + random(94))).join('');

function authorization(): string | undefined {
  switch (random(8)) {
    case 0: case 1: case 2: return `Bearer ${pick(realKeys)}`;
    case 3: case 4: return `Bearer ${realKeys[0]!.slice(0, realKeys[0]!.indexOf('_') + 1)}${junk(40).replace(/[^A-Za-z0-9]/g, 'x')}`;
    case 5: return `Basic ${Buffer.from(junk(20)).toString('base64')}`;
    case 6: return undefined;
    default: return junk(1 + random(200));
  }
}

const ROUTES = [
  ...Array<string>(10).fill('/v1/translate'),
  '/v1/translate/batch', '/v1/translate/estimate', '/v1/jobs', '/v1/usage', '/deepl/v2/translate', '/libretranslate/translate',
  '/v1/jobs/not-a-uuid', '/v1/nowhere', '/v1/translate?x=1&x=2', '/%zz', `/v1/${junk(30).replace(/[^A-Za-z0-9]/g, '')}`,
];

function oddHeaders(): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (let n = random(12); n > 0; n--) headers[`x-${junk(1 + random(20)).toLowerCase().replace(/[^a-z0-9-]/g, 'q')}`] = junk(random(400));
  if (random(4) === 0) headers['x-request-id'] = junk(1 + random(300));
  if (random(6) === 0) headers['idempotency-key'] = junk(1 + random(300));
  if (random(5) === 0) headers.accept = pick(['text/event-stream', '*/*', 'application/xml', junk(40)]);
  if (random(10) === 0) headers.expect = pick(['100-continue', 'nothing-you-know', junk(20)]);
  if (random(8) === 0) headers['x-repeated'] = Array.from({ length: 1 + random(20) }, () => junk(20));
  return headers;
}

function bodyFor(route: string): string {
  if (route.includes('batch')) return JSON.stringify({ items: [{ id: '1', content: mutatedContent(random) }, { id: junk(5), content: mutatedContent(random) }], targets: ['de'] });
  if (route.startsWith('/deepl')) return JSON.stringify({ text: [mutatedContent(random)], target_lang: pick(['DE', 'FR', 'XX']) });
  if (route.startsWith('/libre')) return JSON.stringify({ q: mutatedContent(random), source: 'auto', target: pick(['de', 'zz']), api_key: junk(30) });
  return mutatedTranslateBody(random);
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const statuses = new Map<string, number>();
const failures: string[] = [];

function send(): Promise<void> {
  const route = pick(ROUTES);
  const method = route.endsWith('/usage') || route.includes('not-a-uuid') ? 'GET' : 'POST';
  const body = method === 'POST' ? bodyFor(route) : '';
  const headers = oddHeaders();
  const auth = authorization();
  if (auth !== undefined) headers.authorization = auth;
  if (method === 'POST') headers['content-type'] = random(15) === 0 ? pick(['text/plain', 'application/x-www-form-urlencoded', junk(20)]) : 'application/json';
  return new Promise((done) => {
    const outgoing = request({ host: '127.0.0.1', port, path: route, method, headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const status = response.statusCode ?? 0;
        const text = Buffer.concat(chunks).toString('utf8');
        let code = '';
        if (status >= 400) {
          try {
            const parsed = JSON.parse(text) as Record<string, unknown>;
            // The compatible APIs answer in their own shapes (docs/compatibility.md).
            code = typeof parsed.error === 'string' || typeof parsed.message === 'string' ? String(parsed.error ?? 'compat') : 'NOT AN ENVELOPE';
          } catch {
            code = 'NOT JSON';
          }
        }
        const label = `${status} ${code}`.trim();
        statuses.set(label, (statuses.get(label) ?? 0) + 1);
        if (status >= 500 || code === 'NOT AN ENVELOPE' || code === 'NOT JSON') failures.push(`${label} ${method} ${route}: ${text.slice(0, 120)}`);
        done();
      });
      response.on('error', () => done());
    });
    outgoing.on('error', (error) => {
      statuses.set(`socket ${error.message}`, (statuses.get(`socket ${error.message}`) ?? 0) + 1);
      done();
    });
    outgoing.end(body);
  });
}

const startRss = rss();
// 1. Every hostile shape at the largest size the body limit allows, one after another.
for (let round = 0; round < ROUNDS; round++) {
  for (const shape of HOSTILE_SHAPES) {
    const body = JSON.stringify(shape.format ? { content: fitted(shape), targets: ['fr'], format: shape.format } : { content: fitted(shape), targets: ['fr'] });
    const response = await fetch(`http://127.0.0.1:${port}/v1/translate`, { method: 'POST', headers: { authorization: `Bearer ${realKeys[3]}`, 'content-type': 'application/json' }, body });
    await response.arrayBuffer();
    if (response.status >= 500) failures.push(`${response.status} full-size ${shape.name}`);
  }
}
const peakFull = peak;
const afterFull = rss();

// 2. The mutated requests.
const started = performance.now();
let sent = 0;
const lane = async () => {
  while (sent < COUNT && performance.now() - started < MAX_SECONDS * 1000) {
    sent++;
    await send();
  }
};
await Promise.all(Array.from({ length: CONCURRENCY }, lane));
const seconds = (performance.now() - started) / 1000;
const afterRun = rss();
agent.destroy();
await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
clearInterval(sampler);
const afterIdle = rss();
const rollup = readFileSync(`/proc/${server.pid}/smaps_rollup`, 'utf8')
  .split('\n')
  .filter((line) => /^(Rss|Anonymous|Private_Dirty|Shared_Clean|Private_Clean):/.test(line))
  .map((line) => line.replace(/\s+/g, ' '));
if (SNAPSHOT) {
  const before = new Set(readdirSync('.'));
  server.kill('SIGUSR2');
  for (let i = 0; i < 600 && !readdirSync('.').some((f) => f.endsWith('.heapsnapshot') && !before.has(f)); i++) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 3_000));
}
await stop(server);
rmSync(dir, { recursive: true, force: true });

console.log(`Full-size hostile shapes, ${ROUNDS} rounds: peak ${peakFull} MiB, ${afterFull} MiB after them`);
console.log(`${sent} mutated requests in ${seconds.toFixed(0)} s (${Math.round(sent / seconds)} req/s), ${CONCURRENCY} at a time`);
console.table([...statuses.entries()].sort((a, b) => b[1] - a[1]).map(([answer, count]) => ({ answer, count })));
console.log(`RSS: ${startRss} MiB at start, peak ${peak} MiB, ${afterRun} MiB right after the run, ${afterIdle} MiB after ${IDLE_SECONDS} s idle`);
console.log(`smaps_rollup after idle: ${rollup.join('; ')}`);
if (failures.length > 0) {
  const serverErrors = failures.filter((failure) => failure.startsWith('5'));
  console.log(`${failures.length} answers were 5xx or outside the envelope, e.g.:\n${[...serverErrors, ...failures].slice(0, 10).join('\n')}`);
  process.exitCode = 1;
}
