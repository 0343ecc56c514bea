/**
 * Lowers the scheduling priority of the calling thread only, so that on a busy machine the
 * main thread — which answers every request — gets a core before background work does
 * (docs/decisions/0129-document-workers-yield-the-cpu.md).
 *
 * Linux keeps a nice value per thread: setpriority() given a thread id changes that thread
 * alone. `/proc/thread-self` names the calling thread's id. Elsewhere (no such link) the
 * same call given the process id would lower the whole process, main thread included, so
 * there it does nothing.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The calling thread's id on Linux; undefined where the kernel does not name it. */
function thisThreadId(): number | undefined {
  try {
    const id = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isSafeInteger(id) && id > 0 ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Adds `steps` to this thread's nice value (at most 19). Where the platform keeps no
 * per-thread priority, or refuses the change, the thread runs as before: correct, only
 * less polite.
 */
export function lowerThisThreadPriority(steps: number): void {
  if (steps <= 0) return;
  const id = thisThreadId();
  if (id === undefined) return;
  try {
    setPriority(id, Math.min(19, getPriority(id) + steps));
  } catch {
    // Refused: the thread keeps the process's priority.
  }
}
