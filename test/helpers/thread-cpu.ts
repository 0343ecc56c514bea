/**
 * The main thread's own time on the CPU, for tests that bound how long a piece of work
 * holds the event loop. A timer's wall-clock wait also counts the time the process was
 * not scheduled: on a 2-core CI machine running two test files and their workers, that
 * alone reached 117 ms while the planner's turns stayed short. The CPU the thread spent
 * between two timer firings is what the turns in between cost, whatever the machine's
 * load (decision 0114, docs/event-loop.md).
 *
 * The kernel adds a running thread's time at scheduler ticks and switches, so a reading is
 * a tick (a few ms) behind: fine against bounds of 100 ms and more, useless for a step of
 * a few ms (process.cpuUsage, which counts every thread, is exact there).
 */
import { readFileSync } from 'node:fs';

const SCHEDSTAT = '/proc/thread-self/schedstat';

/** Milliseconds this thread has spent on a CPU (Linux); the process's user+system time elsewhere. */
export function threadCpuMs(): number {
  try {
    return Number(readFileSync(SCHEDSTAT, 'utf8').split(' ', 1)[0]) / 1e6;
  } catch {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  }
}

/**
 * Runs `work` while a timer asks for the loop every millisecond: the longest wait in wall
 * time, and the most CPU this thread spent within one wait (the turn that held the loop).
 */
export async function longestTurnDuring<T>(work: () => Promise<T>): Promise<{ result: T; longestWallMs: number; longestCpuMs: number; ticks: number }> {
  let lastWall = performance.now();
  let lastCpu = threadCpuMs();
  let longestWallMs = 0;
  let longestCpuMs = 0;
  let ticks = 0;
  const look = () => {
    const wall = performance.now();
    const cpu = threadCpuMs();
    longestWallMs = Math.max(longestWallMs, wall - lastWall);
    longestCpuMs = Math.max(longestCpuMs, cpu - lastCpu);
    lastWall = wall;
    lastCpu = cpu;
  };
  const timer = setInterval(() => {
    look();
    ticks++;
  }, 1);
  try {
    const result = await work();
    look();
    return { result, longestWallMs, longestCpuMs, ticks };
  } finally {
    clearInterval(timer);
  }
}
