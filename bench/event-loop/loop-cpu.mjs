// Loaded into the benched server with `node --import` (bench/event-loop/shapes.ts --loop-cpu):
// how long the main thread held the event loop *on the CPU*, which a health check's wait on a
// shared machine does not tell apart from time the process was not scheduled. A timer fires
// every TICK_MS; between two firings the loop ran whatever turns held it, and the main
// thread's own CPU time over that gap (Linux: /proc/thread-self/schedstat, nanoseconds on
// the CPU) is what those turns cost, whatever the machine's load. Collections count when they
// run on this thread (a parallel scavenge's helper threads do not). At exit it writes the gaps
// over MIN_WALL_MS to $LOOP_CPU_FILE as JSON: [{ at (monotonic µs), wallMs, cpuMs }].
// Bench only: never part of the service.
import { readFileSync, writeFileSync } from 'node:fs';

const TICK_MS = 2;
const MIN_WALL_MS = 20;
const FILE = process.env.LOOP_CPU_FILE;

const cpuMs = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
const nowMicros = () => Number(process.hrtime.bigint() / 1000n);

if (FILE) {
  const gaps = [];
  let lastWall = nowMicros();
  let lastCpu = cpuMs();
  setInterval(() => {
    const wall = nowMicros();
    const cpu = cpuMs();
    const wallMs = (wall - lastWall) / 1000;
    if (wallMs >= MIN_WALL_MS) gaps.push({ at: lastWall, wallMs: Math.round(wallMs * 10) / 10, cpuMs: Math.round((cpu - lastCpu) * 10) / 10 });
    lastWall = wall;
    lastCpu = cpu;
  }, TICK_MS).unref();
  process.on('exit', () => writeFileSync(FILE, JSON.stringify(gaps)));
}
