/**
 * One concurrency cap per provider for the whole process (config.engineConcurrency):
 * every engine, request and job that talks to the same provider shares it, so a burst
 * of jobs cannot open more connections than the provider's rate limit tolerates.
 * The slot is held for one HTTP attempt only, not during backoff sleeps.
 */
import pLimit, { type LimitFunction } from 'p-limit';
import type { ProviderName } from './model-client.js';

const limits = new Map<ProviderName, LimitFunction>();

export function providerLimit(provider: ProviderName, concurrency: number): LimitFunction {
  let limit = limits.get(provider);
  if (!limit) {
    limit = pLimit(concurrency);
    limits.set(provider, limit);
  } else if (limit.concurrency !== concurrency) {
    limit.concurrency = concurrency;
  }
  return limit;
}

/**
 * Runs `task` when a slot is free. An abort while waiting rejects at once; the queued
 * task then starts, sees the aborted signal and returns without a request.
 */
export function runLimited<T>(limit: LimitFunction, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  signal?.throwIfAborted();
  const queued = limit(() => {
    signal?.throwIfAborted();
    return task();
  });
  if (!signal) return queued;
  queued.catch(() => {}); // its rejection is reported through the race below
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    queued.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
