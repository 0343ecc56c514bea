/**
 * What the localize commands need of the translation API, as a small interface of their
 * own (decision 0030): the commands are written against it; client-api.ts implements it
 * on the typed client (decision 0035). Field names are the wire's (docs/contract.md, README "API").
 */

/**
 * The formats the API names, from the service's one list (segments/format-name.ts); a
 * file's format is sent when it is known, else the API detects it.
 */
export { FORMATS, isFormat } from '../segments/format-name.js';
export type { Format } from '../segments/format-name.js';
import type { Format } from '../segments/format-name.js';

/** Options every translate-like request shares. */
export interface RequestOptions {
  readonly targets: readonly string[];
  readonly source?: string;
  readonly model?: string;
  readonly glossaryId?: string;
}

export interface TranslateRequest extends RequestOptions {
  readonly content: string;
  readonly format?: Format;
}

export interface BatchItem {
  readonly id: string;
  readonly content: string;
  readonly format?: Format;
}

export interface BatchRequest extends RequestOptions {
  readonly items: readonly BatchItem[];
}

export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Segment × target pairs the service served from its translation memory (0 where it has none). */
  readonly cachedSegments: number;
}

export interface Translated {
  /** Keyed by target code, as the request spelled it. */
  readonly translations: Readonly<Record<string, string>>;
  readonly usage: Usage;
}

export interface BatchTranslated {
  /** In request order. */
  readonly results: readonly { readonly id: string; readonly translations: Readonly<Record<string, string>> }[];
  readonly usage: Usage;
}

/** What `POST /v1/translate/estimate` answers: tokens expected after translation memory, nothing charged. */
export interface Estimate {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
  readonly cachedSegments: number;
  readonly precheck: { readonly passes: boolean };
}

/** A job as the commands follow it while it waits and runs. */
export interface JobProgress {
  readonly jobId: string;
  readonly status: 'pending' | 'processing';
  /** 1 + the jobs ahead of this one, while it waits or runs. */
  readonly queuePosition?: number;
}

export interface LocalizeApi {
  translate(request: TranslateRequest): Promise<Translated>;
  translateBatch(request: BatchRequest): Promise<BatchTranslated>;
  /** Enqueues the work; answers the job's id. */
  createJob(request: TranslateRequest): Promise<string>;
  /** Polls until the job completes (its result) or fails (an ApiError); reports each pending/processing view. */
  waitForJob(jobId: string, onProgress?: (progress: JobProgress) => void): Promise<Translated>;
  estimate(request: TranslateRequest): Promise<Estimate>;
}

/**
 * A request the API refused or could not answer: the API's own error code and message
 * when it sent its envelope, `network_error` when no answer came.
 */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number | undefined,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
