// Loaded into the benched server with `node --import` (bench/event-loop/shapes.ts --loop-cpu):
// how long the main thread held the event loop *on the CPU*, which a health check's wait on a
// shared machine does not tell apart from time the process was not scheduled. A timer fires
// every TICK_MS; between two firings the loop ran whatever turns held it, and the main
// thread's own CPU time over that gap (Linux: /proc/thread-self/schedstat, nanoseconds on
// the CPU) is what those turns cost, whatever the machine's load. The same file gives the
// time the thread was runnable but waiting for a CPU (the machine's load); the rest of the
// gap the thread was blocked (a file sync, a lock, a parallel collection's helpers). Collections count when they
// run on this thread (a parallel scavenge's helper threads do not). At exit it writes the gaps
// over MIN_WALL_MS to $LOOP_CPU_FILE as JSON: [{ at (monotonic µs), wallMs, cpuMs, queuedMs, majorFaults,
// collectionMs }].
// Bench only: never part of the service.
import { writeFileSync } from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { majorFaults, nowMicros, schedMs } from './thread-stats.mjs';

const TICK_MS = 2;
const MIN_WALL_MS = 20;
const FILE = process.env.LOOP_CPU_FILE;

if (FILE) {
  const gaps = [];
  // Collections as V8 reports them (start and length on performance.now()'s clock): a gap's
  // blocked time with a collection in it is the main thread waiting on its helper threads.
  const collections = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) collections.push([entry.startTime, entry.duration]);
  }).observe({ entryTypes: ['gc'] });
  /** ms of collection inside [from, to) of performance.now(). */
  const collectedIn = (from, to) => {
    let ms = 0;
    for (const [start, length] of collections) ms += Math.max(0, Math.min(to, start + length) - Math.max(from, start));
    return ms;
  };
  let lastPerf = performance.now();
  let lastWall = nowMicros();
  let [lastCpu, lastQueued] = schedMs();
  let lastFaults = majorFaults();
  const tenths = (ms) => Math.round(ms * 10) / 10;
  setInterval(() => {
    const wall = nowMicros();
    const perf = performance.now();
    const [cpu, queued] = schedMs();
    const faults = majorFaults();
    const wallMs = (wall - lastWall) / 1000;
    if (wallMs >= MIN_WALL_MS) {
      gaps.push({ at: lastWall, wallMs: tenths(wallMs), cpuMs: tenths(cpu - lastCpu), queuedMs: tenths(queued - lastQueued), majorFaults: faults - lastFaults, perf: [lastPerf, perf] });
    }
    lastWall = wall;
    lastPerf = perf;
    lastFaults = faults;
    lastCpu = cpu;
    lastQueued = queued;
  }, TICK_MS).unref();
  process.on('exit', () => {
    // Collections are reported after they end, so they are matched to the gaps only now.
    for (const gap of gaps) {
      gap.collectionMs = tenths(collectedIn(...gap.perf));
      delete gap.perf;
    }
    writeFileSync(FILE, JSON.stringify(gaps));
  });
}
