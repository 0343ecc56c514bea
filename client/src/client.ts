/**
 * The client: one method per operation, each taking an optional AbortSignal, each retried
 * per retry.ts, each failing with a TranslateApiError that carries the service's code.
 */
import { TranslateApiError, TranslateJobFailedError, TranslateNetworkError } from './errors.js';
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
  JobCreated,
  JobRequest,
  JobView,
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
  async translate(request: TranslateRequest, options: CallOptions = {}): Promise<TranslateResult> {
    return (await this.call<TranslateResult>('POST', '/v1/translate', request, options)).body;
  }

  /** POST /v1/translate/batch: up to 100 documents, all or nothing. */
  async translateBatch(request: BatchRequest, options: CallOptions = {}): Promise<BatchResult> {
    return (await this.call<BatchResult>('POST', '/v1/translate/batch', request, options)).body;
  }

  /** POST /v1/jobs: queues a document; answers at once. */
  async createJob(request: JobRequest, options: CallOptions = {}): Promise<JobCreated> {
    return (await this.call<JobCreated>('POST', '/v1/jobs', request, options)).body;
  }

  /** GET /v1/jobs/{id}: the job as it is now. */
  async getJob(jobId: string, options: CallOptions = {}): Promise<JobView> {
    return (await this.call<JobView>('GET', `/v1/jobs/${encodeURIComponent(jobId)}`, undefined, options)).body;
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

  /** DELETE /v1/memory: forgets every translation the service stored for you. */
  async forgetMemory(options: CallOptions = {}): Promise<void> {
    await this.call<undefined>('DELETE', '/v1/memory', undefined, options);
  }

  /**
   * One operation, tried up to `maxAttempts` times. PUT and DELETE are idempotent (a
   * replace, a delete) and retry like the rest. A POST answered with a retryable code was
   * not done (docs/errors.md); one whose answer was lost on the network may have been, so
   * a retried createJob or createGlossary can, rarely, make a second one.
   */
  private async call<T>(method: Method, path: string, body: unknown, options: CallOptions): Promise<Answer<T>> {
    for (let attempt = 1; ; attempt++) {
      options.signal?.throwIfAborted();
      try {
        return await this.once<T>(method, path, body, options.signal);
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (attempt >= this.retry.maxAttempts || !isRetryable(error)) throw error;
        const delayMs = retryDelayMs(error, attempt, this.retry);
        if (delayMs === undefined) throw error;
        this.options.onRetry?.({ error, attempt, delayMs });
        await sleep(delayMs, options.signal);
      }
    }
  }

  private async once<T>(method: Method, path: string, body: unknown, signal: AbortSignal | undefined): Promise<Answer<T>> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.options.apiKey}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
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
    const requestId = response.headers.get('x-request-id') ?? undefined;
    const retryAfter = response.headers.get('retry-after');
    const retryAfterSeconds = retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined;
    // 204: done, no body to read.
    if (response.status === 204) return { body: undefined as T, retryAfterSeconds };
    let parsed: unknown;
    try {
      parsed = await response.json();
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new TranslateNetworkError(`${method} ${path}: answer ${response.status} is not JSON`, { cause: error });
    }
    if (!response.ok) {
      const { error, message } = (parsed ?? {}) as { error?: string; message?: string };
      if (typeof error !== 'string') throw new TranslateNetworkError(`${method} ${path}: answer ${response.status} is not the service's error envelope`);
      throw new TranslateApiError(response.status, error as ErrorCode, message ?? error, requestId, retryAfterSeconds);
    }
    return { body: parsed as T, retryAfterSeconds };
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

function glossaryPath(glossaryId: string): string {
  return `/v1/glossaries/${encodeURIComponent(glossaryId)}`;
}

interface Answer<T> {
  readonly body: T;
  readonly retryAfterSeconds: number | undefined;
}
