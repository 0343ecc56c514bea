/**
 * The client: one method per operation, each taking an optional AbortSignal, each retried
 * per retry.ts, each failing with a TranslateApiError that carries the service's code.
 */
import { TranslateApiError, TranslateJobFailedError, TranslateNetworkError } from './errors.js';
import { readServerEvents } from './event-stream.js';
import { DEFAULT_RETRY, isRetryable, retryDelayMs, sleep, type RetryOptions } from './retry.js';
import type {
  BatchRequest,
  BatchResult,
  CompletedJob,
  ErrorCode,
  EstimateRequest,
  EstimateResult,
  Glossary,
  GlossaryList,
  GlossaryRequest,
  GlossarySummary,
  DeliveryList,
  DeliveryListQuery,
  JobCreated,
  JobList,
  JobListQuery,
  JobRequest,
  JobView,
  WebhookCreated,
  WebhookEndpoint,
  WebhookList,
  WebhookRequest,
  Languages,
  TranslateRequest,
  TranslateResult,
  Usage,
} from './types.js';

export interface ClientOptions {
  /** Where the service listens, e.g. `http://127.0.0.1:8080` (the `/v1` is added). */
  readonly baseUrl: string;
  /** An API key (`translate-service keys create`). */
  readonly apiKey: string;
  readonly retry?: RetryOptions;
  /** Told before each retry: what failed and how long the client will wait. */
  readonly onRetry?: (info: { error: unknown; attempt: number; delayMs: number }) => void;
  /** A fetch to use instead of the global one. */
  readonly fetch?: typeof fetch;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
}

/** The options of a call that charges or queues (translate, translateBatch, createJob). */
export interface IdempotentCallOptions extends CallOptions {
  /**
   * Sent as Idempotency-Key on every attempt of this call, so a retry after a lost answer
   * gets the first answer instead of paying or queueing again. Default: a fresh UUID per
   * call. Pass your own to make a retry across restarts of your program safe too.
   */
  readonly idempotencyKey?: string;
}

/** What translateStream yields: each target's document as soon as it is complete, then the usage. */
export type TranslateStreamEvent =
  | { readonly type: 'translation'; readonly target: string; readonly text: string }
  | { readonly type: 'usage'; readonly usage: TranslateResult['usage'] };

export interface WaitOptions extends CallOptions {
  /** Give up (TranslateNetworkError) after this long. Default: wait as long as the job does. */
  readonly timeoutMs?: number;
  /** Told each time the job is read while it waits, with the wait the service suggested. */
  readonly onPoll?: (job: JobView, nextPollMs: number) => void;
}

/** When a waiting job's answer suggests no interval (an older service): poll every 5 s. */
export const DEFAULT_POLL_MS = 5_000;

export class TranslateClient {
  private readonly baseUrl: string;
  private readonly retry: Required<RetryOptions>;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
  }

  /** POST /v1/translate: one document into up to 36 languages. */
  async translate(request: TranslateRequest, options: IdempotentCallOptions = {}): Promise<TranslateResult> {
    return (await this.call<TranslateResult>('POST', '/v1/translate', request, withIdempotencyKey(options))).body;
  }

  /**
   * POST /v1/translate as Server-Sent Events (docs/streaming.md): yields a `translation`
   * per target as soon as it is complete, then `usage`, and ends. Failures before the
   * stream starts are retried as `translate`'s are; a failure after it started throws
   * TranslateApiError and is not retried (nothing was charged; call again). Leaving the
   * loop early, or aborting `signal`, closes the connection and the service stops its work.
   */
  async *translateStream(request: TranslateRequest, options: CallOptions = {}): AsyncGenerator<TranslateStreamEvent, void> {
    const path = '/v1/translate';
    const response = await this.retrying(options.signal, () => this.open('POST', path, request, options.signal, undefined, 'text/event-stream'));
    const requestId = response.headers.get('x-request-id') ?? undefined;
    if (!response.headers.get('content-type')?.startsWith('text/event-stream') || !response.body) {
      throw new TranslateNetworkError(`POST ${path}: answer ${response.status} is not an event stream`);
    }
    try {
      for await (const { event, data } of readServerEvents(response.body)) {
        const parsed = JSON.parse(data) as Record<string, unknown>;
        if (event === 'translation') yield { type: 'translation', target: parsed.target as string, text: parsed.text as string };
        else if (event === 'usage') yield { type: 'usage', usage: parsed as TranslateResult['usage'] };
        else if (event === 'done') return;
        else if (event === 'error') {
          throw new TranslateApiError(200, parsed.error as ErrorCode, (parsed.message as string | undefined) ?? String(parsed.error), requestId, undefined);
        }
      }
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (error instanceof TranslateApiError) throw error;
      throw new TranslateNetworkError(`POST ${path}: the stream broke off`, { cause: error });
    }
    if (options.signal?.aborted) throw options.signal.reason;
    throw new TranslateNetworkError(`POST ${path}: the stream ended before its done event`);
  }

  /** POST /v1/translate/batch: up to 100 documents, all or nothing. */
  async translateBatch(request: BatchRequest, options: IdempotentCallOptions = {}): Promise<BatchResult> {
    return (await this.call<BatchResult>('POST', '/v1/translate/batch', request, withIdempotencyKey(options))).body;
  }

  /** POST /v1/jobs: queues a document; answers at once. */
  async createJob(request: JobRequest, options: IdempotentCallOptions = {}): Promise<JobCreated> {
    return (await this.call<JobCreated>('POST', '/v1/jobs', request, withIdempotencyKey(options))).body;
  }

  /** GET /v1/jobs/{id}: the job as it is now. */
  async getJob(jobId: string, options: CallOptions = {}): Promise<JobView> {
    return (await this.call<JobView>('GET', `/v1/jobs/${encodeURIComponent(jobId)}`, undefined, options)).body;
  }

  /**
   * DELETE /v1/jobs/{id}: a pending job is canceled at once (its view, status `canceled`); a
   * processing one stops before its next model call (its view, with `cancel_requested_at`).
   * A finished job is TranslateApiError `job_finished` — also when a first call's answer was
   * lost and the retry finds the job it canceled.
   */
  async cancelJob(jobId: string, options: CallOptions = {}): Promise<JobView> {
    return (await this.call<JobView>('DELETE', `/v1/jobs/${encodeURIComponent(jobId)}`, undefined, options)).body;
  }

  /** GET /v1/jobs: your jobs, newest first; pass `next_cursor` as `cursor` for the next page. */
  async listJobs(query: JobListQuery = {}, options: CallOptions = {}): Promise<JobList> {
    return (await this.call<JobList>('GET', `/v1/jobs${queryString(query)}`, undefined, options)).body;
  }

  /**
   * Polls a job until it completes (its view, with translations) or fails
   * (TranslateJobFailedError), waiting between reads as long as the service suggests
   * in Retry-After (docs/decisions/0021).
   */
  async waitForJob(jobId: string, options: WaitOptions = {}): Promise<CompletedJob> {
    const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
    for (;;) {
      const { body: job, retryAfterSeconds } = await this.call<JobView>('GET', `/v1/jobs/${encodeURIComponent(jobId)}`, undefined, options);
      if (job.status === 'completed') return job;
      if (job.status === 'failed') throw new TranslateJobFailedError(job.job_id, job.error);
      if (job.status === 'canceled') throw new TranslateJobFailedError(job.job_id, 'the job was canceled');
      const waitMs = retryAfterSeconds === undefined ? DEFAULT_POLL_MS : retryAfterSeconds * 1000;
      options.onPoll?.(job, waitMs);
      if (Date.now() + waitMs > deadline) throw new TranslateNetworkError(`job ${jobId} did not finish within ${options.timeoutMs} ms`);
      await sleep(waitMs, options.signal);
    }
  }

  /** GET /v1/usage: this month's tokens against the tier's grant. */
  async usage(options: CallOptions = {}): Promise<Usage> {
    return (await this.call<Usage>('GET', '/v1/usage', undefined, options)).body;
  }

  /** GET /v1/languages: every code `targets` and `source` accept. */
  async languages(options: CallOptions = {}): Promise<Languages> {
    return (await this.call<Languages>('GET', '/v1/languages', undefined, options)).body;
  }

  /** POST /v1/translate/estimate: what `translate(request)` would cost now; no model call, no charge, no rate-limit slot. */
  async estimate(request: EstimateRequest, options: CallOptions = {}): Promise<EstimateResult> {
    return (await this.call<EstimateResult>('POST', '/v1/translate/estimate', request, options)).body;
  }

  /** POST /v1/glossaries: a new glossary; its `glossary_id` goes in translate, batch, estimate and job requests. */
  async createGlossary(request: GlossaryRequest, options: CallOptions = {}): Promise<GlossarySummary> {
    return (await this.call<GlossarySummary>('POST', '/v1/glossaries', request, options)).body;
  }

  /** GET /v1/glossaries: your glossaries, newest first, without their entries. */
  async listGlossaries(options: CallOptions = {}): Promise<GlossaryList> {
    return (await this.call<GlossaryList>('GET', '/v1/glossaries', undefined, options)).body;
  }

  /** GET /v1/glossaries/{id}: one glossary with its entries and version. */
  async getGlossary(glossaryId: string, options: CallOptions = {}): Promise<Glossary> {
    return (await this.call<Glossary>('GET', glossaryPath(glossaryId), undefined, options)).body;
  }

  /** PUT /v1/glossaries/{id}: replaces its content; the version goes up. */
  async replaceGlossary(glossaryId: string, request: GlossaryRequest, options: CallOptions = {}): Promise<Glossary> {
    return (await this.call<Glossary>('PUT', glossaryPath(glossaryId), request, options)).body;
  }

  /** DELETE /v1/glossaries/{id}. */
  async deleteGlossary(glossaryId: string, options: CallOptions = {}): Promise<void> {
    await this.call<undefined>('DELETE', glossaryPath(glossaryId), undefined, options);
  }

  /** POST /v1/webhooks: an endpoint for job events; the answer's `secret` (Standard Webhooks) is shown only this once. */
  async createWebhook(request: WebhookRequest, options: CallOptions = {}): Promise<WebhookCreated> {
    return (await this.call<WebhookCreated>('POST', '/v1/webhooks', request, options)).body;
  }

  /** GET /v1/webhooks: your endpoints, newest first, without their secrets. */
  async listWebhooks(options: CallOptions = {}): Promise<WebhookList> {
    return (await this.call<WebhookList>('GET', '/v1/webhooks', undefined, options)).body;
  }

  /** GET /v1/webhooks/{id}. */
  async getWebhook(webhookId: string, options: CallOptions = {}): Promise<WebhookEndpoint> {
    return (await this.call<WebhookEndpoint>('GET', webhookPath(webhookId), undefined, options)).body;
  }

  /** DELETE /v1/webhooks/{id}: its deliveries not yet sent are dropped. */
  async deleteWebhook(webhookId: string, options: CallOptions = {}): Promise<void> {
    await this.call<undefined>('DELETE', webhookPath(webhookId), undefined, options);
  }

  /** GET /v1/webhooks/{id}/deliveries: recent deliveries, newest first, with their attempts and last answer. */
  async listWebhookDeliveries(webhookId: string, query: DeliveryListQuery = {}, options: CallOptions = {}): Promise<DeliveryList> {
    return (await this.call<DeliveryList>('GET', `${webhookPath(webhookId)}/deliveries${queryString(query)}`, undefined, options)).body;
  }

  /** DELETE /v1/memory: forgets every translation the service stored for you. */
  async forgetMemory(options: CallOptions = {}): Promise<void> {
    await this.call<undefined>('DELETE', '/v1/memory', undefined, options);
  }

  /**
   * One operation, tried up to `maxAttempts` times. PUT and DELETE are idempotent (a
   * replace, a delete) and retry like the rest. A POST answered with a retryable code was
   * not done (docs/errors.md); one whose answer was lost on the network may have been, so
   * translate, translateBatch and createJob send one Idempotency-Key on all their attempts
   * (the service answers the retry with the first answer). createGlossary has none: a
   * retried one can, rarely, make a second glossary.
   */
  private call<T>(method: Method, path: string, body: unknown, options: IdempotentCallOptions): Promise<Answer<T>> {
    return this.retrying(options.signal, () => this.once<T>(method, path, body, options.signal, options.idempotencyKey));
  }

  /** `attempt`, tried again per retry.ts until it succeeds, fails for good, or `signal` aborts. */
  private async retrying<T>(signal: AbortSignal | undefined, attempt: () => Promise<T>): Promise<T> {
    const options = { signal };
    for (let tries = 1; ; tries++) {
      options.signal?.throwIfAborted();
      try {
        return await attempt();
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (tries >= this.retry.maxAttempts || !isRetryable(error)) throw error;
        const delayMs = retryDelayMs(error, tries, this.retry);
        if (delayMs === undefined) throw error;
        this.options.onRetry?.({ error, attempt: tries, delayMs });
        await sleep(delayMs, options.signal);
      }
    }
  }

  private async once<T>(method: Method, path: string, body: unknown, signal: AbortSignal | undefined, idempotencyKey?: string): Promise<Answer<T>> {
    const response = await this.open(method, path, body, signal, idempotencyKey, 'application/json');
    const retryAfterSeconds = retryAfterOf(response);
    // 204: done, no body to read.
    if (response.status === 204) return { body: undefined as T, retryAfterSeconds };
    let parsed: unknown;
    try {
      parsed = await response.json();
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new TranslateNetworkError(`${method} ${path}: answer ${response.status} is not JSON`, { cause: error });
    }
    return { body: parsed as T, retryAfterSeconds };
  }

  /** Sends one request; an error answer becomes TranslateApiError, no answer TranslateNetworkError. */
  private async open(
    method: Method,
    path: string,
    body: unknown,
    signal: AbortSignal | undefined,
    idempotencyKey: string | undefined,
    accept: string,
  ): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.options.apiKey}`, accept };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    let response: Response;
    try {
      response = await (this.options.fetch ?? fetch)(this.baseUrl + path, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new TranslateNetworkError(`${method} ${path}: the service could not be reached`, { cause: error });
    }
    if (response.ok) return response;
    let parsed: unknown;
    try {
      parsed = await response.json();
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new TranslateNetworkError(`${method} ${path}: answer ${response.status} is not JSON`, { cause: error });
    }
    const { error, message } = (parsed ?? {}) as { error?: string; message?: string };
    if (typeof error !== 'string') throw new TranslateNetworkError(`${method} ${path}: answer ${response.status} is not the service's error envelope`);
    throw new TranslateApiError(response.status, error as ErrorCode, message ?? error, response.headers.get('x-request-id') ?? undefined, retryAfterOf(response));
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

function retryAfterOf(response: Response): number | undefined {
  const retryAfter = response.headers.get('retry-after');
  return retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined;
}

/** The call's own key, or a fresh one shared by all its attempts. */
function withIdempotencyKey(options: IdempotentCallOptions): IdempotentCallOptions {
  return options.idempotencyKey !== undefined ? options : Object.assign({}, options, { idempotencyKey: globalThis.crypto.randomUUID() });
}

function webhookPath(webhookId: string): string {
  return `/v1/webhooks/${encodeURIComponent(webhookId)}`;
}

/** `?a=1&b=x` of the members that are set; '' when none is. */
function queryString(query: Readonly<Record<string, string | number | undefined>>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

function glossaryPath(glossaryId: string): string {
  return `/v1/glossaries/${encodeURIComponent(glossaryId)}`;
}

interface Answer<T> {
  readonly body: T;
  readonly retryAfterSeconds: number | undefined;
}
