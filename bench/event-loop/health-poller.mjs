// Forked by bench/event-loop/shapes.ts: polls GET BASE/health every 10 ms and nothing else,
// from when it says 'ready',
// so a wait it measures is the server's, not the pauses of the bench process that is
// meanwhile sending a 2 MiB document and taking in its answer of tens of MB. On the
// message 'stop' it sends back every wait (ms) and the windows of those over SLOW_MS on
// the monotonic clock (µs) the server's profile and loop-cpu.mjs use, with the time the
// poller itself was queued for a CPU in each (on a shared machine, part of a wait is the
// client's, not the server's), then exits.
// Bench only: never part of the service.
import { nowMicros, schedMs } from './thread-stats.mjs';

const BASE = process.argv[2];
const SLOW_MS = Number(process.argv[3] ?? 50);
/** ms this thread has been runnable and waiting for a CPU. */
const queuedMs = () => schedMs()[1];

const latencies = [];
/** Per wait over SLOW_MS: its window, and how much of it this poller itself was queued for a CPU. */
const slow = [];
let stopping = false;

process.on('message', (message) => {
  if (message === 'stop') stopping = true;
});

// The first fetch of a process loads and compiles its HTTP client and opens the
// connection: tens of ms that are the poller's own. Done once before the parent is told
// to send its document, and not counted.
await (await fetch(`${BASE}/health`)).arrayBuffer();
process.send('ready');

while (!stopping) {
  const started = performance.now();
  const from = nowMicros();
  const queuedBefore = queuedMs();
  await (await fetch(`${BASE}/health`)).arrayBuffer();
  const waited = performance.now() - started;
  latencies.push(waited);
  if (waited > SLOW_MS) slow.push({ from, to: nowMicros(), waited, pollerQueuedMs: queuedMs() - queuedBefore });
  await new Promise((wake) => setTimeout(wake, 10));
}
process.send({ latencies, slow }, () => process.exit(0));
