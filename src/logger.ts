/** Structured JSON logs (pino). Credentials are redacted wherever they might appear. */
import { pino, type DestinationStream, type Logger } from 'pino';

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'authorization', '*.authorization', '*.apiKey'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
