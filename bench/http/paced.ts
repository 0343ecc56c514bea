/**
 * Open-loop load at a steady rate, for "p99 at half the maximum rate" (docs/benchmarks.md,
 * "HTTP request path"). Requests fall due at evenly spaced instants whether or not the
 * earlier ones were answered (a stall of the service shows in every request it held up,
 * as a user would see it), and each latency counts from the moment the request was handed
 * to the connection pool, waiting for a free connection included. The pacer looks at the
 * clock every TICK_MS, so a request goes out up to a tick after it fell due; that lateness
 * is the client's, not the service's, and is reported apart (`pacerLateMs`): a large value
 * means the load generator itself stalled and the run says little.
 *
 * autocannon's rate options are a budget per connection per second: it sends flat out
 * until the second's quota is spent, then idles until the next second. That measures
 * bursts at full speed, not a half-loaded service, so its p99 "at half rate" was the p99
 * at full load.
 */
import { pathToFileURL } from 'node:url';
import { Pool } from 'undici';

export interface PacedRequest {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export interface PacedResult {
  /** Requests answered per second over the run. */
  readonly rate: number;
  readonly answered: number;
  /** Latency percentiles in ms, counted from when each request fell due. */
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** The longest a request went out after it fell due (the pacer's own delay). */
  readonly pacerLateMs: number;
}

/** How often the pacer looks at the clock; requests due in between go out together. */
const TICK_MS = 1;

export async function pacedLoad(options: {
  readonly origin: string;
  readonly rate: number;
  readonly seconds: number;
  readonly connections: number;
  readonly request: () => PacedRequest;
}): Promise<PacedResult> {
  const pool = new Pool(options.origin, { connections: options.connections, pipelining: 1 });
  const total = Math.round(options.rate * options.seconds);
  const latencies = new Float64Array(total);
  const intervalMs = 1000 / options.rate;
  let answered = 0;
  const failures: string[] = [];
  const inFlight: Promise<void>[] = [];

  let pacerLateMs = 0;

  const send = (index: number, dueAt: number): Promise<void> => {
    const { path, headers, body } = options.request();
    const sentAt = performance.now();
    pacerLateMs = Math.max(pacerLateMs, sentAt - dueAt);
    return pool.request({ path, method: 'POST', headers, body }).then(
      async (response) => {
        await response.body.text();
        latencies[index] = performance.now() - sentAt;
        answered++;
        if (response.statusCode !== 200 && failures.length < 5) failures.push(`status ${response.statusCode}`);
      },
      (error: unknown) => {
        if (failures.length < 5) failures.push(String(error));
      },
    );
  };

  const started = performance.now();
  await new Promise<void>((done) => {
    let next = 0;
    const tick = (): void => {
      const now = performance.now();
      while (next < total && started + next * intervalMs <= now) {
        inFlight.push(send(next, started + next * intervalMs));
        next++;
      }
      if (next < total) setTimeout(tick, TICK_MS);
      else done();
    };
    tick();
  });
  await Promise.all(inFlight);
  const elapsedS = (performance.now() - started) / 1000;
  await pool.close();
  if (failures.length > 0) throw new Error(`paced load: ${failures.join('; ')}`);

  const sorted = latencies.slice(0, answered).sort();
  const at = (fraction: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]! * 100) / 100;
  return { rate: answered / elapsedS, answered, p50: at(0.5), p99: at(0.99), max: at(1), pacerLateMs: Math.round(pacerLateMs * 100) / 100 };
}

/**
 * What `node --import tsx bench/http/paced.ts CONFIG.json` runs: the paced load from a
 * process of its own (bench/http/run.ts starts it), so the load generator starts fresh
 * instead of carrying the garbage of the full-speed rounds that ran before in the bench's
 * process. Prints the PacedResult as JSON.
 */
export interface PacedRunConfig {
  readonly origin: string;
  readonly path: string;
  readonly rate: number;
  /** Paced first and not counted: connections opened, collectors settled. */
  readonly warmupSeconds: number;
  readonly seconds: number;
  readonly connections: number;
  /** Used in turn, one a request. */
  readonly keys: readonly string[];
  readonly sentence: string;
  /** Every request a sentence not sent before, numbered from `distinctFrom`. */
  readonly distinct: boolean;
  readonly distinctFrom: number;
}

async function runFromConfig(path: string): Promise<void> {
  const { readFileSync } = await import('node:fs');
  const config = JSON.parse(readFileSync(path, 'utf8')) as PacedRunConfig;
  let sent = config.distinctFrom;
  let next = 0;
  const fixedBody = JSON.stringify({ content: config.sentence, targets: ['fr'] });
  const request = (): PacedRequest => ({
    path: config.path,
    headers: { authorization: `Bearer ${config.keys[next++ % config.keys.length]}`, 'content-type': 'application/json' },
    body: config.distinct ? JSON.stringify({ content: `${config.sentence.slice(0, -1)}, number ${++sent}.`, targets: ['fr'] }) : fixedBody,
  });
  const load = (seconds: number) => pacedLoad({ origin: config.origin, rate: config.rate, seconds, connections: config.connections, request });
  if (config.warmupSeconds > 0) await load(config.warmupSeconds);
  process.stdout.write(`${JSON.stringify(await load(config.seconds))}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runFromConfig(process.argv[2]!);
