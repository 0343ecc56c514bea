/**
 * One HTTP attempt against a model provider: POST JSON, read JSON, nothing else. Every
 * failure leaves as a `ProviderCallError` that says whether trying again can help, so
 * the retry loop (retry.ts) never has to look at provider details. An abort through the
 * caller's signal is not a provider failure: it is rethrown as the signal's reason and
 * never retried.
 */

export type ProviderFailure = 'http' | 'timeout' | 'network' | 'bad-response';

/** Statuses worth another attempt: timeouts, conflicts, rate limits, server errors, 529 overloaded. */
const RETRYABLE_STATUS = (status: number): boolean => status === 408 || status === 409 || status === 429 || status >= 500;

export class ProviderCallError extends Error {
  constructor(
    readonly failure: ProviderFailure,
    /** For logs only: may quote the provider. Users see EngineError's message instead. */
    message: string,
    readonly status?: number,
    /** From `retry-after-ms` / `retry-after`, when the provider sent one. */
    readonly retryAfterMs?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ProviderCallError';
  }

  get retryable(): boolean {
    return this.failure !== 'http' || RETRYABLE_STATUS(this.status ?? 0);
  }
}

/** `call` is the model request: its `timeoutMs` and optional `signal` bound the attempt. */
export async function postJson(
  url: string,
  headers: Readonly<Record<string, string>>,
  body: unknown,
  call: { readonly timeoutMs: number; readonly signal?: AbortSignal | undefined },
): Promise<unknown> {
  call.signal?.throwIfAborted();
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), call.timeoutMs);
  const signal = call.signal ? AbortSignal.any([call.signal, timeout.signal]) : timeout.signal;
  let status: number;
  let responseHeaders: Headers;
  let text: string;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      signal,
    });
    status = response.status;
    responseHeaders = response.headers;
    // The body is read under the same timeout and signal: a stalled or cut stream fails here.
    text = await response.text();
  } catch (error) {
    if (call.signal?.aborted) throw call.signal.reason;
    if (timeout.signal.aborted) {
      throw new ProviderCallError('timeout', `no answer within ${call.timeoutMs} ms`, undefined, undefined, {
        cause: error,
      });
    }
    throw new ProviderCallError('network', `connection failed: ${describe(error)}`, undefined, undefined, {
      cause: error,
    });
  } finally {
    clearTimeout(timer);
  }
  if (status < 200 || status > 299) {
    throw new ProviderCallError('http', `HTTP ${status}: ${text.slice(0, 300)}`, status, retryAfterMs(responseHeaders));
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ProviderCallError('bad-response', `HTTP ${status} with a body that is not JSON`, status, undefined, {
      cause: error,
    });
  }
}

/** A usage count as the provider reported it; undefined when absent or not a count. */
export function tokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** `retry-after-ms` (OpenAI, milliseconds) wins over `retry-after` (seconds or an HTTP date). */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers.get('retry-after');
  if (raw === null) return undefined;
  const seconds = Number.parseFloat(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return error.message + cause;
}
