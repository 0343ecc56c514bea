/**
 * Loading the service's modules takes about a second. A SIGTERM or SIGINT in that time
 * would kill the process by the signal's default action (exit by signal, not 0), so the
 * entry point arms this first; the real shutdown handler disarms it once installed.
 */
const exitCleanly = (): void => process.exit(0);

export function armEarlyExit(): void {
  process.once('SIGTERM', exitCleanly);
  process.once('SIGINT', exitCleanly);
}

export function disarmEarlyExit(): void {
  process.off('SIGTERM', exitCleanly);
  process.off('SIGINT', exitCleanly);
}
