export { TranslateClient, DEFAULT_POLL_MS, type CallOptions, type ClientOptions, type IdempotentCallOptions, type TranslateStreamEvent, type WaitOptions } from './client.js';
export { TranslateApiError, TranslateJobFailedError, TranslateNetworkError } from './errors.js';
export { DEFAULT_RETRY, type RetryOptions } from './retry.js';
export type * from './types.js';
export type { paths } from './schema.js';
