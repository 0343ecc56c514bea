/**
 * Graceful shutdown on SIGTERM/SIGINT, for `serve` and `worker` alike: run `shutdown`
 * once, exit 0 when it finishes, 1 when it fails or outlasts the grace period.
 */
import type { Logger } from 'pino';
import { flushLogs } from '../logger.js';
import { disarmEarlyExit } from './early-signals.js';

export function onShutdownSignal(logger: Logger, shutdown: () => Promise<void>, graceMs: number): void {
  let shuttingDown = false;
  const handle = (signal: NodeJS.Signals) => {
    if (shuttingDown) {
      logger.info({ signal }, 'already shutting down');
      return;
    }
    shuttingDown = true;
    logger.info({ signal, graceMs }, 'shutting down: finishing in-flight work');
    const force = setTimeout(() => {
      logger.error('shutdown took longer than the grace period allows; exiting');
      process.exit(1);
    }, graceMs + 10_000);
    force.unref();
    shutdown().then(
      () => {
        logger.info('shut down cleanly');
        // Logs are written asynchronously: the last lines reach stdout before the exit.
        void flushLogs(logger).then(() => process.exit(0));
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        void flushLogs(logger).then(() => process.exit(1));
      },
    );
  };
  // `on`, not `once`: a second signal during shutdown must not fall back to the default
  // action and kill the process mid-way; the timer above bounds the wait instead.
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
  disarmEarlyExit();
}
