/** Structured JSON logs (pino). Credentials are redacted wherever they might appear (log-redaction.ts). */
import { pino, type DestinationStream, type Logger } from 'pino';
import { BatchedLineWriter } from './log-destination.js';
import { redactCredentials } from './log-redaction.js';

/**
 * Without a destination the logs go to stdout, gathered and written off the event loop
 * (log-destination.ts, docs/decisions/0031 and 0038): a line reaches the kernel within
 * GATHER_MS of being logged, never while a request waits. What is still gathered when the
 * process exits (process.exit, an uncaught exception) is written synchronously then, and
 * `flushLogs` drains it on a clean shutdown.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, formatters: { log: redactCredentials } };
  return pino(options, destination ?? new BatchedLineWriter(1));
}

/** Resolves once every line logged so far has been written (or the stream failed). */
export function flushLogs(logger: Logger): Promise<void> {
  return new Promise((done) => {
    try {
      logger.flush(() => done());
    } catch {
      // A destroyed or not yet opened stream has nothing to wait for.
      done();
    }
  });
}
