/** Structured JSON logs (pino). Credentials are redacted wherever they might appear. */
import { pino, type Logger } from 'pino';

export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'authorization', '*.authorization', 'key', '*.apiKey'],
      censor: '[redacted]',
    },
  });
}
