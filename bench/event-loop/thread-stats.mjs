// What Linux says of the calling thread, for the bench-only scripts beside this one
// (loop-cpu.mjs in the server, health-poller.mjs in its own process). Bench only.
import { readFileSync } from 'node:fs';

/** The monotonic clock every process of a shapes run shares, in µs. */
export const nowMicros = () => Number(process.hrtime.bigint() / 1000n);

/** [on the CPU, runnable and waiting for one], in ms since the thread started (/proc/thread-self/schedstat). */
export const schedMs = () => readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').slice(0, 2).map((ns) => Number(ns) / 1e6);

/** Page faults of this thread that had to read from disk (field 12 of /proc/thread-self/stat):
 * blocked time with many of them is memory the kernel took back (DAMON's pageout, reclaim). */
export const majorFaults = () => {
  const stat = readFileSync('/proc/thread-self/stat', 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[9]);
};
