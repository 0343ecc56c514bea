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

export interface PostJsonRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

export async function postJson(request: PostJsonRequest): Promise<unknown> {
  request.signal?.throwIfAborted();
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout.signal]) : timeout.signal;
  let status: number;
  let headers: Headers;
  let text: string;
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...request.headers },
      body: JSON.stringify(request.body),
      signal,
    });
    status = response.status;
    headers = response.headers;
    // The body is read under the same timeout and signal: a stalled or cut stream fails here.
    text = await response.text();
  } catch (error) {
    if (request.signal?.aborted) throw request.signal.reason;
    if (timeout.signal.aborted) {
      throw new ProviderCallError('timeout', `no answer within ${request.timeoutMs} ms`, undefined, undefined, {
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
    throw new ProviderCallError('http', `HTTP ${status}: ${text.slice(0, 300)}`, status, retryAfterMs(headers));
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ProviderCallError('bad-response', `HTTP ${status} with a body that is not JSON`, status, undefined, {
      cause: error,
    });
  }
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
