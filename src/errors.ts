/**
 * The closed list of error codes the API can answer with. Domain code throws
 * `ServiceError(code, message)`; only the HTTP layer maps a code to a status.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_format: 400,
  invalid_language: 400,
  unsupported_language_pair: 400,
  invalid_api_key: 401,
  advanced_not_available: 403,
  not_found: 404,
  request_timeout: 408,
  idempotency_key_in_use: 409,
  job_finished: 409,
  webhook_limit_reached: 409,
  payload_too_large: 413,
  expectation_failed: 417,
  document_too_complex: 422,
  idempotency_key_reused: 422,
  token_limit_reached: 429,
  rate_limit_reached: 429,
  headers_too_large: 431,
  translation_error: 500,
  server_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** A message longer than this is cut (with "…"): messages may quote input, and must stay short. */
export const MAX_MESSAGE_CHARS = 400;

export function boundMessage(message: string): string {
  return message.length <= MAX_MESSAGE_CHARS ? message : `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…`;
}

export class ServiceError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(boundMessage(message), options);
    this.name = 'ServiceError';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** The 400 for a request that is not as documented; `message` says what is wrong. */
export function invalidRequest(message: string): ServiceError {
  return new ServiceError('invalid_request', message);
}

export function isServiceError(error: unknown): error is ServiceError {
  return error instanceof ServiceError;
}
