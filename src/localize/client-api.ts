/**
 * LocalizeApi over the typed client (client/, imported as `#client`; docs/decisions/0035).
 * The client does the retrying — 429 `rate_limit_reached` after its Retry-After, 500
 * `translation_error`/`server_error`, 503, answers that are not the service's (a proxy's
 * 502/504) and failed connections, with backoff and jitter — and the job polling at the
 * interval the service suggests. This file only maps names: the commands' camelCase
 * requests to the wire's bodies, the answers back, and the client's typed errors to
 * ApiError so the commands report them as before.
 */
import {
  TranslateApiError,
  TranslateClient,
  TranslateJobFailedError,
  TranslateNetworkError,
  type EstimateRequest,
  type TranslateResult,
  type TranslateRequest as WireTranslateRequest,
} from '#client';
import { ApiError, type LocalizeApi, type RequestOptions, type TranslateRequest, type Translated, type Usage } from './api.js';

export interface ClientApiOptions {
  /** The API's base URL as it names itself, ending in /v1, e.g. http://127.0.0.1:8080/v1. */
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Attempts per request in all (first try included). Default 4. */
  readonly attempts?: number;
  /** The cap of the first retry's random wait (doubling each retry). Default 500 ms. */
  readonly baseDelayMs?: number;
}

/** The service's base URL without its `/v1`, which the client adds to every path. */
export function serviceRoot(apiUrl: string): string {
  const trimmed = apiUrl.replace(/\/+$/, '');
  if (!trimmed.endsWith('/v1')) {
    throw new ApiError('invalid_api_url', `the API URL must be the API's base URL ending in /v1 (e.g. http://127.0.0.1:8080/v1), got ${apiUrl}`, undefined);
  }
  return trimmed.slice(0, -'/v1'.length);
}

export function createClientApi(options: ClientApiOptions): LocalizeApi {
  const apiUrl = options.baseUrl.replace(/\/+$/, '');
  const client = new TranslateClient({
    baseUrl: serviceRoot(apiUrl),
    apiKey: options.apiKey,
    retry: {
      maxAttempts: options.attempts ?? 4,
      // A Retry-After longer than this is not waited for; the error is reported instead.
      maxDelayMs: 90_000,
      ...(options.baseDelayMs !== undefined ? { baseDelayMs: options.baseDelayMs } : {}),
    },
  });

  /** The client's errors as the commands know them: the API's code, or network_error / job_failed. */
  async function mapped<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof TranslateApiError) throw new ApiError(error.code, error.message, error.status);
      if (error instanceof TranslateJobFailedError) throw new ApiError('job_failed', error.message, 200);
      if (error instanceof TranslateNetworkError) {
        // The client's cause is fetch's TypeError, whose own cause says why (ECONNREFUSED …).
        const reason = error.cause instanceof Error && error.cause.cause instanceof Error ? error.cause.cause.message : error.message;
        throw new ApiError('network_error', `could not reach ${apiUrl}: ${reason}`, undefined);
      }
      throw error;
    }
  }

  return {
    translate: (request) => mapped(async () => translated(await client.translate(translateBody(request)))),
    translateBatch: (request) =>
      mapped(async () => {
        const answer = await client.translateBatch({
          items: request.items.map((item) => ({ id: item.id, content: item.content, ...(item.format ? { format: item.format } : {}) })),
          ...optionsBody(request),
        });
        return { results: answer.results, usage: usage(answer.usage) };
      }),
    createJob: (request) => mapped(async () => (await client.createJob(translateBody(request))).job_id),
    waitForJob: (jobId, onProgress) =>
      mapped(async () => {
        const done = await client.waitForJob(jobId, {
          onPoll: (view) => {
            if (view.status !== 'pending' && view.status !== 'processing') return;
            onProgress?.({ jobId, status: view.status, ...(view.queue_position !== undefined ? { queuePosition: view.queue_position } : {}) });
          },
        });
        return translated(done);
      }),
    estimate: (request) =>
      mapped(async () => {
        const answer = await client.estimate(translateBody(request) satisfies EstimateRequest);
        return {
          inputTokens: answer.input_tokens,
          outputTokens: answer.output_tokens,
          totalTokens: answer.total_tokens,
          cachedSegments: answer.cached_segments,
          precheck: { passes: answer.precheck.passes },
        };
      }),
  };
}

type WireOptions = Omit<WireTranslateRequest, 'content' | 'format'>;

function optionsBody(request: RequestOptions): WireOptions {
  return {
    targets: [...request.targets],
    ...(request.source !== undefined ? { source: request.source } : {}),
    // The config's model is checked by the service (400 invalid_request), like every field.
    ...(request.model !== undefined ? { model: request.model as NonNullable<WireOptions['model']> } : {}),
    ...(request.glossaryId !== undefined ? { glossary_id: request.glossaryId } : {}),
  };
}

/** The body /translate, POST /jobs and /translate/estimate share. */
function translateBody(request: TranslateRequest): WireTranslateRequest {
  return { content: request.content, ...(request.format ? { format: request.format } : {}), ...optionsBody(request) };
}

function usage(wire: Pick<TranslateResult['usage'], 'input_tokens' | 'output_tokens' | 'cached_segments'>): Usage {
  return {
    inputTokens: wire.input_tokens,
    outputTokens: wire.output_tokens,
    cachedSegments: wire.cached_segments,
  };
}

function translated(answer: { translations: Record<string, string>; usage: Parameters<typeof usage>[0] }): Translated {
  return { translations: answer.translations, usage: usage(answer.usage) };
}
