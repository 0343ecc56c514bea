/**
 * The soak of issue 37: the built server as users run it (`node DIR/dist/cli.js serve`,
 * embedded default: SQLite file, `pseudo` engine, job workers in the process), then an
 * open-loop paced mix at RATE requests a second for MINUTES: translate (half a sentence
 * seen before, half new), batch (5 items), jobs (a small document queued, then its status
 * read), usage. Each request falls due at its instant whether or not earlier ones were
 * answered, and its latency counts from then, so a stall of the server shows in every
 * request it held. Printed per minute: requests, errors, p50 / p99 / max latency, and the
 * server's own event-loop delay (p99 of its 10 s periods, longest) from a bench-only
 * preload (loop-delay.mjs).
 *   --profile=DIR  the server runs under --cpu-prof and --trace-gc; printed after the run:
 *                  what its main thread ran in the first minute and after (CPU time by
 *                  function, and the longest busy stretches; profile-stalls.ts), and its
 *                  collections per minute (count, pause total, longest).
 * Run: npm run build && nice -n -20 npx tsx bench/soak/run.ts [DIR=.] [--minutes=5] [--rate=200] [--connections=64] [--profile=/tmp/soak]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Pool } from 'undici';
import { freePort } from '../../test/helpers/net.js';
import { describeStalls, longestStalls, samplesDuring, type Stall } from '../event-loop/profile-stalls.js';

const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const DIR = resolve(args.find((a) => !a.startsWith('--')) ?? '.');
const MINUTES = Number(option('minutes') ?? 5);
const RATE = Number(option('rate') ?? 200);
const CONNECTIONS = Number(option('connections') ?? 64);
const PROFILE = option('profile');
const LOOP_DELAY_PERIOD_MS = 10_000;

const nowMicros = () => Number(process.hrtime.bigint() / 1000n);

// --- the server --------------------------------------------------------------------------
const dir = mkdtempSync(join(tmpdir(), 'soak-'));
const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'soak.db')}`, RATE_LIMIT_STORE: 'none', LOG_LEVEL: 'warn' };
const created = spawnSync(process.execPath, [join(DIR, 'dist/cli.js'), 'keys', 'create', '--tier', 'enterprise', '--json'], { env, encoding: 'utf8' });
if (created.status !== 0) throw new Error(`keys create failed (did you npm run build in ${DIR}?): ${created.stderr}`);
const { key } = JSON.parse(created.stdout) as { key: string };
const port = await freePort();
if (PROFILE) mkdirSync(PROFILE, { recursive: true });
const profileFlags = PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`, '--trace-gc'] : [];
const spawnedAt = nowMicros();
const server = spawn(
  process.execPath,
  [...profileFlags, '--import', new URL('./loop-delay.mjs', import.meta.url).href, join(DIR, 'dist/cli.js'), 'serve'],
  { env: { ...env, PORT: String(port), SOAK_LOOP_DELAY_PERIOD_MS: String(LOOP_DELAY_PERIOD_MS) }, stdio: ['ignore', 'pipe', 'pipe'] },
);
const loopDelays: { at: number; p99: number; max: number }[] = [];
let gcLog = '';
server.stdout!.on('data', (chunk: Buffer) => {
  if (PROFILE) gcLog += chunk.toString();
});
let stderrTail = '';
server.stderr!.on('data', (chunk: Buffer) => {
  for (const line of chunk.toString().split('\n')) {
    const delay = /^soak-loop-delay (.*)$/.exec(line);
    if (delay) loopDelays.push({ at: nowMicros(), ...(JSON.parse(delay[1]!) as { p99: number; max: number }) });
    else if (line.trim()) stderrTail = `${stderrTail}\n${line}`.slice(-2000);
  }
});
const origin = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  if (server.exitCode !== null) throw new Error(`serve exited: ${stderrTail}`);
  if (await fetch(`${origin}/v1/health`).then((r) => r.ok, () => false)) break;
  if (i > 1200) throw new Error('the server did not start');
  await new Promise((wake) => setTimeout(wake, 50));
}
const listeningAfterMs = (nowMicros() - spawnedAt) / 1000;

// --- the mix -----------------------------------------------------------------------------
interface Call {
  readonly kind: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
}
const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const TARGETS = [['fr'], ['de', 'es'], ['ja']];
const sentence = (n: number) => `The order number ${n} was shipped to the customer this morning.`;
const jobIds: string[] = [];
let fresh = 0;
/** Request i of the mix: 55 % translate, 15 % batch, 10 % job queued, 10 % job read, 10 % usage. */
function callNumber(i: number): Call {
  const slot = i % 20;
  const targets = TARGETS[i % TARGETS.length]!;
  const text = i % 2 === 0 ? sentence(i % 200) : sentence(1_000_000 + ++fresh);
  if (slot < 11) return { kind: 'translate', method: 'POST', path: '/v1/translate', body: JSON.stringify({ content: text, targets }) };
  if (slot < 14) {
    const items = Array.from({ length: 5 }, (_, k) => ({ id: String(k), content: k % 2 ? sentence((i + k) % 200) : sentence(2_000_000 + ++fresh) }));
    return { kind: 'batch', method: 'POST', path: '/v1/translate/batch', body: JSON.stringify({ items, targets }) };
  }
  if (slot < 16) return { kind: 'job', method: 'POST', path: '/v1/jobs', body: JSON.stringify({ content: `# Notes ${i}\n\n${text}\n\n- ${sentence(i % 50)}\n`, format: 'markdown', targets }) };
  if (slot < 18 && jobIds.length > 0) return { kind: 'job status', method: 'GET', path: `/v1/jobs/${jobIds[i % jobIds.length]}` };
  return { kind: 'usage', method: 'GET', path: '/v1/usage' };
}

// --- paced load --------------------------------------------------------------------------
const pool = new Pool(origin, { connections: CONNECTIONS, pipelining: 1 });
const total = Math.round(RATE * MINUTES * 60);
const latency = new Float64Array(total).fill(-1);
const failed = new Uint8Array(total);
const failures: string[] = [];
const inFlight = new Set<Promise<void>>();
let pacerLateMs = 0;
// The server's loop-delay periods start again here (loop-delay.mjs).
server.kill('SIGUSR2');
const loadStartedAt = nowMicros();
const started = performance.now();
const send = (i: number, dueAt: number) => {
  const call = callNumber(i);
  pacerLateMs = Math.max(pacerLateMs, performance.now() - dueAt);
  const done = pool.request({ path: call.path, method: call.method, headers: auth, body: call.body }).then(
    async (response) => {
      const text = await response.body.text();
      latency[i] = performance.now() - dueAt;
      const ok = response.statusCode === (call.kind === 'job' ? 202 : 200);
      if (!ok) {
        failed[i] = 1;
        if (failures.length < 5) failures.push(`${call.kind} ${response.statusCode}: ${text.slice(0, 160)}`);
      } else if (call.kind === 'job' && jobIds.length < 500) jobIds.push((JSON.parse(text) as { job_id: string }).job_id);
    },
    (error: unknown) => {
      latency[i] = performance.now() - dueAt;
      failed[i] = 1;
      if (failures.length < 5) failures.push(`${call.kind}: ${String(error)}`);
    },
  );
  inFlight.add(done);
  void done.finally(() => inFlight.delete(done));
};
await new Promise<void>((finished) => {
  let next = 0;
  const tick = () => {
    const now = performance.now();
    while (next < total && started + (next * 1000) / RATE <= now) {
      send(next, started + (next * 1000) / RATE);
      next++;
    }
    if (next < total) setTimeout(tick, 1);
    else finished();
  };
  tick();
});
await Promise.all(inFlight);
await pool.close();
// One more period, so the last minute's loop delay is reported.
await new Promise((wake) => setTimeout(wake, LOOP_DELAY_PERIOD_MS + 500));

const exited = new Promise((done) => server.once('exit', done));
server.kill('SIGTERM');
await exited;

// --- per minute --------------------------------------------------------------------------
const perMinute = RATE * 60;
const rows: Record<string, string | number>[] = [];
for (let minute = 0; minute < MINUTES; minute++) {
  const slice = Array.from(latency.subarray(minute * perMinute, (minute + 1) * perMinute)).filter((ms) => ms >= 0).sort((a, b) => a - b);
  const at = (share: number) => Math.round(slice[Math.min(slice.length - 1, Math.floor(share * slice.length))]! * 10) / 10;
  const from = loadStartedAt + minute * 60e6;
  const delays = loopDelays.filter((d) => d.at > from && d.at <= from + 60e6 + 1e6);
  rows.push({
    minute: minute + 1,
    requests: slice.length,
    errors: failed.subarray(minute * perMinute, (minute + 1) * perMinute).reduce((sum, f) => sum + f, 0),
    'p50 ms': at(0.5),
    'p99 ms': at(0.99),
    'max ms': at(1),
    'loop delay p99 ms (worst 10 s)': Math.max(0, ...delays.map((d) => d.p99)),
    'loop delay max ms': Math.max(0, ...delays.map((d) => d.max)),
  });
}
console.log(`soak: ${RATE} req/s for ${MINUTES} min, ${CONNECTIONS} connections; the server answered health ${Math.round(listeningAfterMs)} ms after it was started; pacer late at most ${Math.round(pacerLateMs)} ms`);
console.table(rows);
if (failures.length > 0) console.log(`failures (first ${failures.length}):\n  ${failures.join('\n  ')}`);

// --- what held the first minute ----------------------------------------------------------
if (PROFILE) {
  const profile = join(PROFILE, readdirSync(PROFILE).find((name) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(name))!);
  const loadEnd = loadStartedAt + MINUTES * 60e6;
  const [startUp, first, rest] = samplesDuring(profile, [
    { from: spawnedAt, to: loadStartedAt - 1 },
    { from: loadStartedAt, to: loadStartedAt + 60e6 },
    { from: loadStartedAt + 60e6 + 1, to: loadEnd },
  ]);
  const cpu = (label: string, stall: Stall) =>
    `${label}: ${Math.round(stall.by.reduce((sum, [, ms]) => sum + ms, 0))} ms of CPU on the main thread in ${Math.round(stall.ms)} ms\n${describeStalls([stall], 12).split('\n').slice(1).join('\n')}`;
  console.log(cpu('start-up, before health answered', startUp!));
  console.log(cpu('first minute of load', first!));
  if (MINUTES > 1) console.log(cpu(`minutes 2–${MINUTES}`, rest!));
  console.log(`the longest busy stretches of the first minute (one may be several turns):\n${describeStalls(longestStalls(profile, 3, { from: loadStartedAt, to: loadStartedAt + 60e6 }), 8)}`);
  if (MINUTES > 1) console.log(`the longest busy stretches after it:\n${describeStalls(longestStalls(profile, 3, { from: loadStartedAt + 60e6 + 1, to: loadEnd }), 8)}`);
  writeFileSync(join(PROFILE, 'gc.log'), gcLog);
  // --trace-gc: "[pid:isolate]   12345 ms: Scavenge 10.1 (12.0) -> 9.5 (13.0) MB, 1.23 / 0.00 ms ..." (ms since the isolate started).
  const loadStartMs = (loadStartedAt - spawnedAt) / 1000;
  const gcRows: Record<string, string | number>[] = [];
  for (const line of gcLog.split('\n')) {
    const match = /\]\s+(\d+) ms: ([A-Za-z-]+(?: \([^)]*\))?).*?MB, ([\d.]+) \/ ([\d.]+) ms/.exec(line);
    if (!match) continue;
    const minute = Number(match[1]) < loadStartMs ? 'start-up' : `minute ${Math.floor((Number(match[1]) - loadStartMs) / 60_000) + 1}`;
    const kind = match[2]!.startsWith('Scavenge') ? 'scavenge' : 'mark-compact';
    let row = gcRows.find((r) => r.when === minute && r.kind === kind);
    if (!row) gcRows.push((row = { when: minute, kind, count: 0, 'pause total ms': 0, 'longest ms': 0 }));
    row.count = Number(row.count) + 1;
    row['pause total ms'] = Math.round((Number(row['pause total ms']) + Number(match[3])) * 10) / 10;
    row['longest ms'] = Math.max(Number(row['longest ms']), Number(match[3]));
  }
  console.log('collections (--trace-gc; pause on the main thread):');
  console.table(gcRows);
}
rmSync(dir, { recursive: true, force: true });
console.log(`load average: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
