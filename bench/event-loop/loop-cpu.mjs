// Loaded into the benched server with `node --import` (bench/event-loop/shapes.ts --loop-cpu):
// how long the main thread held the event loop *on the CPU*, which a health check's wait on a
// shared machine does not tell apart from time the process was not scheduled. A timer fires
// every TICK_MS; between two firings the loop ran whatever turns held it, and the main
// thread's own CPU time over that gap (Linux: /proc/thread-self/schedstat, nanoseconds on
// the CPU) is what those turns cost, whatever the machine's load. The same file gives the
// time the thread was runnable but waiting for a CPU (the machine's load); the rest of the
// gap the thread was blocked (a file sync, a lock, a parallel collection's helpers). Collections count when they
// run on this thread (a parallel scavenge's helper threads do not). At exit it writes the gaps
// over MIN_WALL_MS to $LOOP_CPU_FILE as JSON: [{ at (monotonic µs), wallMs, cpuMs, queuedMs }].
// Bench only: never part of the service.
import { readFileSync, writeFileSync } from 'node:fs';

const TICK_MS = 2;
const MIN_WALL_MS = 20;
const FILE = process.env.LOOP_CPU_FILE;

/** [on the CPU, runnable and waiting for one], in ms since the thread started. */
const schedMs = () => readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').slice(0, 2).map((ns) => Number(ns) / 1e6);
const nowMicros = () => Number(process.hrtime.bigint() / 1000n);

if (FILE) {
  const gaps = [];
  let lastWall = nowMicros();
  let [lastCpu, lastQueued] = schedMs();
  const tenths = (ms) => Math.round(ms * 10) / 10;
  setInterval(() => {
    const wall = nowMicros();
    const [cpu, queued] = schedMs();
    const wallMs = (wall - lastWall) / 1000;
    if (wallMs >= MIN_WALL_MS) gaps.push({ at: lastWall, wallMs: tenths(wallMs), cpuMs: tenths(cpu - lastCpu), queuedMs: tenths(queued - lastQueued) });
    lastWall = wall;
    lastCpu = cpu;
    lastQueued = queued;
  }, TICK_MS).unref();
  process.on('exit', () => writeFileSync(FILE, JSON.stringify(gaps)));
}
