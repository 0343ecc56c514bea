/**
 * LocalizeApi over plain fetch against the /v1 endpoints. Retries what is worth
 * retrying — a 429 `rate_limit_reached` after its Retry-After, 502/503/504, and a
 * connection that failed — a few times; every other error is the API's answer and is
 * reported as it came. `token_limit_reached` is not retried: the month's grant does not
 * come back in seconds.
 */
import {
  ApiError,
  type BatchRequest,
  type BatchTranslated,
  type Estimate,
  type JobProgress,
  type LocalizeApi,
  type RequestOptions,
  type TranslateRequest,
  type Translated,
  type Usage,
} from './api.js';

const SECOND = 1000;

export interface FetchApiOptions {
  /** The API's base URL as it names itself, e.g. http://127.0.0.1:8080/v1. */
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  /** Attempts per request in all (first try included). */
  readonly attempts?: number;
  /** Between two polls of a job. */
  readonly pollIntervalMs?: number;
  /** A Retry-After longer than this is not waited for; the error is reported instead. */
  readonly maxRetryWaitMs?: number;
}

const RETRIED_STATUSES = new Set([502, 503, 504]);

export function createFetchApi(options: FetchApiOptions): LocalizeApi {
  const base = options.baseUrl.replace(/\/+$/, '');
  const attempts = options.attempts ?? 4;
  const pollIntervalMs = options.pollIntervalMs ?? 2 * SECOND;
  const maxRetryWaitMs = options.maxRetryWaitMs ?? 90 * SECOND;

  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    if (options.apiKey === undefined) {
      throw new ApiError('missing_api_key', 'no API key: set TRANSLATE_API_KEY or pass --api-key', undefined);
    }
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(`${base}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${options.apiKey}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      } catch (error) {
        if (attempt < attempts) {
          await sleep(backoff(attempt));
          continue;
        }
        const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
        throw new ApiError('network_error', `could not reach ${base}: ${reason}`, undefined);
      }
      const text = await response.text();
      if (response.ok) return parseJson(text, response.status);
      const envelope = errorEnvelope(text);
      const retryAfterMs = retryAfter(response);
      const retryable =
        (response.status === 429 && envelope.code === 'rate_limit_reached' && retryAfterMs <= maxRetryWaitMs) ||
        RETRIED_STATUSES.has(response.status);
      if (retryable && attempt < attempts) {
        await sleep(response.status === 429 ? retryAfterMs : backoff(attempt));
        continue;
      }
      throw new ApiError(envelope.code, envelope.message, response.status);
    }
  }

  return {
    async translate(request) {
      return translated(await call('POST', '/translate', translateBody(request)));
    },
    async translateBatch(request: BatchRequest): Promise<BatchTranslated> {
      const answer = (await call('POST', '/translate/batch', {
        items: request.items.map((item) => ({ id: item.id, content: item.content, ...(item.format ? { format: item.format } : {}) })),
        ...optionsBody(request),
      })) as { results: { id: string; translations: Record<string, string> }[]; usage: WireUsage };
      return { results: answer.results, usage: usage(answer.usage) };
    },
    async createJob(request) {
      const answer = (await call('POST', '/jobs', translateBody(request))) as { job_id: string };
      return answer.job_id;
    },
    async waitForJob(jobId: string, onProgress?: (progress: JobProgress) => void): Promise<Translated> {
      for (;;) {
        const view = (await call('GET', `/jobs/${encodeURIComponent(jobId)}`)) as WireJob;
        if (view.status === 'completed') return translated(view);
        if (view.status === 'failed') throw new ApiError('job_failed', `job ${jobId} failed: ${view.error ?? 'no reason given'}`, 200);
        onProgress?.({ jobId, status: view.status, ...(view.queue_position !== undefined ? { queuePosition: view.queue_position } : {}) });
        await sleep(pollIntervalMs);
      }
    },
    async estimate(request): Promise<Estimate> {
      const answer = (await call('POST', '/translate/estimate', translateBody(request))) as WireEstimate;
      return {
        inputTokens: answer.input_tokens,
        outputTokens: answer.output_tokens,
        totalTokens: answer.total_tokens,
        cachedSegments: answer.cached_segments ?? 0,
        modelCalls: answer.model_calls,
        precheck: { passes: answer.precheck.passes, tokensRemaining: answer.precheck.tokens_remaining },
      };
    },
  };
}

interface WireUsage {
  input_tokens: number;
  output_tokens: number;
  cached_segments?: number;
  detected_format?: Usage['detectedFormat'];
}

interface WireJob {
  status: 'pending' | 'processing' | 'completed' | 'failed';
  queue_position?: number;
  translations?: Record<string, string>;
  usage?: WireUsage;
  error?: string;
}

interface WireEstimate {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  cached_segments?: number;
  model_calls: number;
  precheck: { passes: boolean; tokens_remaining: number | null };
}

function optionsBody(request: RequestOptions): Record<string, unknown> {
  return {
    targets: request.targets,
    ...(request.source !== undefined ? { source: request.source } : {}),
    ...(request.model !== undefined ? { model: request.model } : {}),
    ...(request.glossaryId !== undefined ? { glossary_id: request.glossaryId } : {}),
  };
}

/** The body /translate, POST /jobs and /translate/estimate share. */
function translateBody(request: TranslateRequest): Record<string, unknown> {
  return { content: request.content, ...(request.format ? { format: request.format } : {}), ...optionsBody(request) };
}

function usage(wire: WireUsage): Usage {
  return {
    inputTokens: wire.input_tokens,
    outputTokens: wire.output_tokens,
    cachedSegments: wire.cached_segments ?? 0,
    ...(wire.detected_format ? { detectedFormat: wire.detected_format } : {}),
  };
}

function translated(answer: unknown): Translated {
  const { translations, usage: wire } = answer as { translations: Record<string, string>; usage: WireUsage };
  return { translations, usage: usage(wire) };
}

function parseJson(text: string, status: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('invalid_answer', `the API answered ${status} with a body that is not JSON`, status);
  }
}

/** The API's `{error, message}`; something readable when a proxy answered instead. */
function errorEnvelope(text: string): { code: string; message: string } {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    if (typeof body.error === 'string') {
      return { code: body.error, message: typeof body.message === 'string' ? body.message : body.error };
    }
  } catch {
    // not the API's envelope; fall through
  }
  return { code: 'http_error', message: text.slice(0, 200) || 'no message' };
}

function retryAfter(response: Response): number {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * SECOND : SECOND;
}

function backoff(attempt: number): number {
  return 250 * 2 ** (attempt - 1);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
