/** What a call can fail with: the service's own answer, or no answer at all. */
import type { ErrorCode } from './types.js';

/** The service answered an error: `{"error": code, "message"}` with an HTTP status. */
export class TranslateApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** The answer's X-Request-Id: quote it when reporting a problem. */
    readonly requestId: string | undefined,
    /** Seconds the service asked to wait (Retry-After), when it said. */
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(message);
    this.name = 'TranslateApiError';
  }
}

/** No answer: the connection failed, or the answer was not the service's JSON. */
export class TranslateNetworkError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TranslateNetworkError';
  }
}

/** waitForJob: the job ended failed (`error` is the service's sentence). */
export class TranslateJobFailedError extends Error {
  constructor(
    readonly jobId: string,
    readonly error: string,
  ) {
    super(`job ${jobId} failed: ${error}`);
    this.name = 'TranslateJobFailedError';
  }
}
