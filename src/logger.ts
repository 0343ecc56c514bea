/** Structured JSON logs (pino). Credentials are redacted wherever they might appear (log-redaction.ts). */
import { pino, type DestinationStream, type Logger } from 'pino';
import { redactCredentials } from './log-redaction.js';

/**
 * Without a destination the logs go to stdout, written asynchronously
 * (docs/decisions/0031): a line is handed to the kernel after the request that logged it
 * has moved on, not while it waits. pino's destination writes what is still buffered
 * synchronously when the process exits (process.exit, an uncaught exception), and
 * `flushLogs` drains it on a clean shutdown.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, formatters: { log: redactCredentials } };
  return pino(options, destination ?? asyncStdout());
}

function asyncStdout(): DestinationStream {
  // minLength 1 writes a line as soon as no write is in flight (as 0 would), but unlike 0
  // it makes sonic-boom's flush(cb) wait until everything buffered has been written;
  // with 0 flush calls back at once.
  return pino.destination({ dest: 1, sync: false, minLength: 1 });
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
