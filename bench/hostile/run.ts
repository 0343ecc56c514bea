/**
 * The long hostile run (docs/benchmarks.md, § Hostile documents). Starts the built server
 * (`node dist/cli.js serve`, embedded default: SQLite, pseudo engine) as a child process on
 * loopback and measures its RSS from /proc while:
 *   1. every hostile shape of test/hostile/shapes.ts, at the largest size the body limit
 *      allows, is sent ROUNDS times one after another (health polled meanwhile);
 *   2. COUNT mutated bodies (mutations.ts) are sent CONCURRENCY at a time, within MAX_SECONDS;
 *   3. the server idles until its document workers have exited, and RSS is read again.
 * It fails (exit 1) on any 5xx or an answer outside the envelope.
 * Run: npm run build && npx tsx bench/hostile/run.ts [--count=40000] [--rounds=3] [--concurrency=8] [--max-seconds=900]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../test/helpers/net.js';
import { HOSTILE_SHAPES, fitted } from '../../test/hostile/shapes.js';
import { mutatedTranslateBody, seededRandom } from './mutations.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const COUNT = option('count', 40_000);
const ROUNDS = option('rounds', 3);
const CONCURRENCY = option('concurrency', 8);
const MAX_SECONDS = option('max-seconds', 900);
const IDLE_SECONDS = 40; // document workers exit after 30 s without a document

const dir = mkdtempSync(join(tmpdir(), 'hostile-bench-'));
const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`, RATE_LIMIT_STORE: 'none', LOG_LEVEL: 'warn' };
const created = spawnSync(process.execPath, ['dist/cli.js', 'keys', 'create', '--tier', 'enterprise', '--json'], { env, encoding: 'utf8' });
if (created.status !== 0) throw new Error(`keys create failed (did you npm run build?): ${created.stderr}`);
const { key } = JSON.parse(created.stdout) as { key: string };
const port = await freePort();
const server = spawn(process.execPath, ['dist/cli.js', 'serve', '--no-workers'], { env: { ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
const base = `http://127.0.0.1:${port}/v1`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/health`)).ok) break;
  } catch {
    if (i > 100) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function rssMiB(): number {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}
let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, rssMiB())), 100);

const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const statuses = new Map<string, number>();
const failures: string[] = [];
async function send(body: string): Promise<number> {
  const response = await fetch(`${base}/translate`, { method: 'POST', headers, body });
  const text = await response.text();
  let code = '';
  if (response.status !== 200) {
    try {
      const parsed = JSON.parse(text) as { error?: unknown; message?: unknown };
      code = typeof parsed.error === 'string' && typeof parsed.message === 'string' ? parsed.error : 'NOT AN ENVELOPE';
    } catch {
      code = 'NOT JSON';
    }
  }
  const label = `${response.status}${code ? ` ${code}` : ''}`;
  statuses.set(label, (statuses.get(label) ?? 0) + 1);
  if (response.status >= 500 || code === 'NOT AN ENVELOPE' || code === 'NOT JSON') failures.push(`${label}: ${body.slice(0, 120)}`);
  return response.status;
}

// 1. Full-size hostile documents, one after another.
const fullRows: Record<string, string | number>[] = [];
const startRss = rssMiB();
for (let round = 0; round < ROUNDS; round++) {
  for (const shape of HOSTILE_SHAPES) {
    // Built before the clock starts: this process's own stalls must not count as the server's.
    const body = JSON.stringify({ content: fitted(shape), targets: ['fr'], ...(shape.format ? { format: shape.format } : {}) });
    const latencies: number[] = [];
    let done = false;
    const poll = (async () => {
      while (!done) {
        const started = performance.now();
        await (await fetch(`${base}/health`)).arrayBuffer();
        latencies.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const started = performance.now();
    const status = await send(body);
    const elapsed = performance.now() - started;
    done = true;
    await poll;
    latencies.sort((a, b) => a - b);
    if (round === ROUNDS - 1) {
      fullRows.push({ shape: shape.name, status, 'answer ms': Math.round(elapsed), 'health max ms': Math.round(latencies.at(-1) ?? 0), 'rss MiB': rssMiB() });
    }
  }
}
const peakFull = peak;

// 2. Mutated bodies.
const random = seededRandom(42);
const mutate = () => mutatedTranslateBody(random);
const mutatedStarted = performance.now();
let sent = 0;
const lane = async () => {
  while (sent < COUNT && performance.now() - mutatedStarted < MAX_SECONDS * 1000) {
    sent++;
    await send(mutate());
  }
};
await Promise.all(Array.from({ length: CONCURRENCY }, lane));
const mutatedSeconds = (performance.now() - mutatedStarted) / 1000;
const peakAll = peak;
const afterRun = rssMiB();

// 3. Idle: the document workers retire.
await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
const afterIdle = rssMiB();
clearInterval(sampler);
server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
rmSync(dir, { recursive: true, force: true });

console.log(`Full-size hostile documents, ${ROUNDS} rounds one after another (last round shown):`);
console.table(fullRows);
console.log(`RSS: ${startRss} MiB at start, peak ${peakFull} MiB during the full-size rounds`);
console.log(`Mutated bodies: ${sent} in ${mutatedSeconds.toFixed(0)} s (${Math.round(sent / mutatedSeconds)} req/s), ${CONCURRENCY} at a time`);
console.table([...statuses.entries()].sort((a, b) => b[1] - a[1]).map(([answer, count]) => ({ answer, count })));
console.log(`RSS: peak ${peakAll} MiB overall, ${afterRun} MiB right after the run, ${afterIdle} MiB after ${IDLE_SECONDS} s idle`);
if (failures.length > 0) {
  console.log(`${failures.length} answers were 5xx or outside the envelope, e.g.:\n${failures.slice(0, 10).join('\n')}`);
  process.exitCode = 1;
}
