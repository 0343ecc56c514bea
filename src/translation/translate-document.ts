/**
 * One document into many targets: detect the format if needed, extract segments,
 * translate each distinct segment once (planned into model calls for latency, plan.ts,
 * and run in parallel up to the engine's slots), check every answer, and render one
 * document per target. The synchronous routes, the batch route and the job worker all
 * call this.
 */
import type { EngineLanguage, EngineSegment, TokenUsage, TranslationEngine } from '../engines/engine.js';
import { EngineError } from '../engines/engine.js';
import type { DetectionResult, Format } from '../formats/format.js';
import type { DocumentLimits } from '../formats/format.js';
import { markProblem } from '../segments/segment.js';
import type { Language } from '../languages.js';
import { DocumentPool } from './document-pool.js';
import { extractDocument } from './extract-document.js';
import { countTokens } from '../tokens.js';
import { planChunks, type Chunk } from './plan.js';
import { runLimited } from './run-limited.js';
import { inlineDocument, type PreparedDocument, type RenderRequest } from './prepared-document.js';

export type { PreparedDocument } from './prepared-document.js';

/** A target as requested: the canonical language plus the caller's spelling of its code. */
export interface RequestedTarget {
  readonly requested: string;
  readonly language: Language;
}

export interface DocumentTranslation {
  /** Keyed by the caller's spelling of each target code. */
  readonly translations: Record<string, string>;
  readonly usage: TokenUsage;
  /** Model calls made (repairs included). */
  readonly calls: number;
  readonly detection?: DetectionResult;
}

/**
 * Content longer than this (UTF-16 code units) is detected, extracted and rendered in a
 * worker thread, within its time and memory limits. Up to it no reader can take long
 * however hostile the content (~2 ms at most, measured), and staying inline keeps short strings
 * fast while every worker is busy (docs/decisions/0011-every-document-in-a-bounded-worker.md).
 */
export const LARGE_DOCUMENT_CHARS = 1024;

export interface PrepareOptions {
  /** Where large documents go; default: one pool shared by the process. */
  readonly pool?: DocumentPool;
  /** Overrides LARGE_DOCUMENT_CHARS (tests and benches; Infinity = always inline). */
  readonly largeDocumentChars?: number;
  /** Nesting, placeholder and segment limits; default DEFAULT_DOCUMENT_LIMITS. */
  readonly limits?: DocumentLimits;
}

let sharedPool: DocumentPool | undefined;
/** Process-wide defaults; benches force everything inline to measure the old behaviour. */
const defaults: { largeDocumentChars: number } = { largeDocumentChars: LARGE_DOCUMENT_CHARS };

export function setLargeDocumentChars(chars: number): void {
  defaults.largeDocumentChars = chars;
}

/** The pool every caller shares. Its idle workers are unref'd, so it never needs closing. */
export function sharedDocumentPool(): DocumentPool {
  sharedPool ??= new DocumentPool();
  return sharedPool;
}

/**
 * Detects and extracts; rejects with ServiceError('invalid_request') for unreadable
 * content. The caller must `release()` the result when done, on failure too.
 */
export async function prepareDocument(
  content: string,
  format: Format | undefined,
  options: PrepareOptions = {},
): Promise<PreparedDocument> {
  if (content.length > (options.largeDocumentChars ?? defaults.largeDocumentChars)) {
    return (options.pool ?? sharedDocumentPool()).prepare(content, format, options.limits);
  }
  const { document, detection } = extractDocument(content, format, options.limits);
  return inlineDocument(document, detection);
}

export interface TranslateOptions {
  readonly targets: readonly RequestedTarget[];
  readonly source?: Language;
  readonly engine: TranslationEngine;
  readonly signal?: AbortSignal;
  /**
   * Who the model calls are for: calls of one caller share model-call slots fairly with
   * other callers' (engines/provider-limit.ts). Default: a new caller for this call.
   */
  readonly caller?: object;
}

export async function translatePrepared(
  options: TranslateOptions & { readonly prepared: PreparedDocument },
): Promise<DocumentTranslation> {
  const all = await translatePreparedAll([options.prepared], options);
  return { ...all.documents[0]!, usage: all.usage, calls: all.calls };
}

export interface DocumentsTranslation {
  /** In the order of the documents given. */
  readonly documents: ReadonlyArray<{ readonly translations: Record<string, string>; readonly detection?: DetectionResult }>;
  /** Summed over every model call; calls may serve several documents at once, so there is no per-document share. */
  readonly usage: TokenUsage;
  readonly calls: number;
}

/**
 * Several documents into the same targets as one piece of work: their distinct segments
 * are planned together (so many small documents share calls), every call runs as soon
 * as a model-call slot is free, and the first failure cancels the rest and rejects.
 */
export async function translatePreparedAll(
  documents: readonly PreparedDocument[],
  options: TranslateOptions,
): Promise<DocumentsTranslation> {
  const work = await translateSegments(documents, options);
  options.signal?.throwIfAborted();
  const rendered = await Promise.all(
    documents.map(async (document, index) => {
      const requests: RenderRequest[] = options.targets.map(({ requested, language }, t) => ({
        key: requested,
        target: { code: language.code, rtl: language.rtl },
        translations: work.translations[index]![t]!,
      }));
      const translations = await document.renderAll(requests);
      return { translations, ...(document.detection ? { detection: document.detection } : {}) };
    }),
  );
  return { documents: rendered, usage: work.usage, calls: work.calls };
}

interface SegmentWork {
  /** document → target (in request order) → translation of each segment, aligned with its segments. */
  readonly translations: string[][][];
  readonly usage: TokenUsage;
  readonly calls: number;
}

/** Translates the distinct segments of `documents` (planned together per format) into every target. */
async function translateSegments(documents: readonly PreparedDocument[], options: TranslateOptions): Promise<SegmentWork> {
  const { targets, engine, signal } = options;
  // Identical segments are translated once: by format, line rule and text.
  const uniqueIndex = new Map<string, number>();
  const unique: { segment: EngineSegment; format: Format; tokens: number | undefined }[] = [];
  const positions: number[][] = documents.map((document) =>
    document.segments.map((segment, i) => {
      const key = `${document.format}\u0000${segment.singleLine ? 1 : 0}\u0000${segment.text}`;
      let index = uniqueIndex.get(key);
      if (index === undefined) {
        index = unique.length;
        uniqueIndex.set(key, index);
        unique.push({
          segment: { id: String(index), text: segment.text, ...(segment.singleLine ? { singleLine: true } : {}) },
          format: document.format,
          // Counts made in a document worker spare the loop one o200k pass over the document.
          tokens: document.tokenCounts?.[i],
        });
      }
      return index;
    }),
  );

  const engineTargets: EngineLanguage[] = targets.map((t) => t.language);
  const calls: { chunk: Chunk; format: Format }[] = [];
  for (const format of new Set(unique.map((entry) => entry.format))) {
    const ofFormat = unique.filter((entry) => entry.format === format);
    const tokensById = new Map(ofFormat.map((entry) => [entry.segment, entry.tokens]));
    const segments = ofFormat.map((entry) => entry.segment);
    const chunks = planChunks(segments, engineTargets, engine.budget, (segment) => tokensById.get(segment) ?? countTokens(segment.text));
    for (const chunk of chunks) calls.push({ chunk, format });
  }

  const done: string[][] = engineTargets.map(() => new Array<string>(unique.length));
  const targetIndex = new Map(engineTargets.map((target, i) => [target.code, i]));
  const usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0 };
  let callCount = 0;
  const caller = options.caller ?? {};
  // One failed call fails the request: cancel the calls still running or waiting.
  const cancel = new AbortController();
  const onAbort = (): void => cancel.abort(signal!.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) cancel.abort(signal.reason);
  try {
    await runLimited(calls, Math.max(1, engine.budget.parallelCalls ?? 1), async ({ chunk, format }) => {
      try {
        const result = await engine.translate({
          segments: chunk.segments,
          targets: chunk.targets,
          requestTargets: engineTargets,
          ...(options.source ? { source: options.source } : {}),
          format,
          signal: cancel.signal,
          caller,
        });
        usage.inputTokens += result.usage.inputTokens;
        usage.outputTokens += result.usage.outputTokens;
        usage.cachedInputTokens += result.usage.cachedInputTokens ?? 0;
        usage.cacheWriteTokens += result.usage.cacheWriteTokens ?? 0;
        callCount += result.calls ?? 1;
        for (const target of chunk.targets) {
          const translated = result.translations.get(target.code);
          const row = done[targetIndex.get(target.code)!]!;
          for (const segment of chunk.segments) {
            const text = translated?.get(segment.id);
            if (text === undefined) throw new EngineError('the model did not translate every segment', true);
            const problem = markProblem(segment.text, text);
            if (problem) throw new EngineError(`the model broke the document's markup (${problem})`, true);
            row[Number(segment.id)] = text;
          }
        }
      } catch (error) {
        cancel.abort(error);
        throw error;
      }
    });
  } catch (error) {
    // The caller's abort wins over the errors it caused in the calls it cancelled.
    signal?.throwIfAborted();
    throw error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }

  return {
    translations: positions.map((indexes) => done.map((row) => indexes.map((index) => row[index]!))),
    usage: {
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      ...(usage.cachedInputTokens > 0 ? { cachedInputTokens: usage.cachedInputTokens } : {}),
      ...(usage.cacheWriteTokens > 0 ? { cacheWriteTokens: usage.cacheWriteTokens } : {}),
    },
    calls: callCount,
  };
}

/**
 * Prepares several documents; if any fails, releases the others and rejects with the
 * first failure in input order (the error a one-by-one loop would have thrown).
 */
export async function prepareDocuments(
  items: readonly { readonly content: string; readonly format?: Format | undefined }[],
  options: PrepareOptions = {},
): Promise<PreparedDocument[]> {
  const settled = await Promise.allSettled(items.map((item) => prepareDocument(item.content, item.format, options)));
  const failure = settled.find((result) => result.status === 'rejected');
  if (failure) {
    for (const result of settled) if (result.status === 'fulfilled') result.value.release();
    throw failure.reason;
  }
  return settled.map((result) => (result as PromiseFulfilledResult<PreparedDocument>).value);
}
