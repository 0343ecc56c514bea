/**
 * One document into many targets: detect the format if needed, extract segments,
 * translate each distinct segment once (from translation memory where it can, the rest
 * planned into model calls for latency and run in parallel up to the engine's slots;
 * segment-work.ts), check every answer, and render one
 * document per target. The synchronous routes, the batch route and the job worker all
 * call this.
 */
import type { DetectionResult, DocumentLimits, Format } from '../formats/format.js';
import type { DocumentPool } from './document-pool.js';
import { extractDocument } from './extract-document.js';
import { inlineDocument, type PreparedDocument, type RenderRequest } from './prepared-document.js';
import { translateSegments } from './segment-work.js';
import type { TranslateOptions, WorkTally } from './translate-options.js';

export type { PreparedDocument } from './prepared-document.js';

export interface DocumentTranslation extends WorkTally {
  /** Keyed by the caller's spelling of each target code. */
  readonly translations: Record<string, string>;
  readonly detection?: DetectionResult;
}

/**
 * Content longer than this (UTF-16 code units) is detected, extracted and rendered in a
 * worker thread, within its time and memory limits. Up to it no reader can take long
 * however hostile the content (docs/benchmarks.md, "Figures from code comments"), and
 * staying inline keeps short strings fast while every worker is busy (docs/decisions/0011-every-document-in-a-bounded-worker.md).
 */
export const LARGE_DOCUMENT_CHARS = 1024;

export interface PrepareOptions {
  /**
   * Where large documents go: the process's pool, made by the composition root
   * (document-processing.ts). Without one every document is read inline (tests and benches).
   */
  readonly pool?: DocumentPool;
  /** Overrides LARGE_DOCUMENT_CHARS (tests and benches; Infinity = always inline). */
  readonly largeDocumentChars?: number;
  /** Nesting, placeholder and segment limits; default DEFAULT_DOCUMENT_LIMITS. */
  readonly limits?: DocumentLimits;
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
  if (options.pool && content.length > (options.largeDocumentChars ?? LARGE_DOCUMENT_CHARS)) {
    return options.pool.prepare(content, format, options.limits);
  }
  const { document, detection } = extractDocument(content, format, options.limits);
  return inlineDocument(document, detection);
}

export async function translatePrepared(
  options: TranslateOptions & { readonly prepared: PreparedDocument },
): Promise<DocumentTranslation> {
  return firstDocument(await translatePreparedAll([options.prepared], options));
}

/** The translation of the first (for translatePrepared, the only) document of `all`. */
export function firstDocument(all: DocumentsTranslation): DocumentTranslation {
  const { translations, detection } = all.documents[0]!;
  return {
    translations,
    usage: all.usage,
    calls: all.calls,
    cachedSegments: all.cachedSegments,
    glossaryMisses: all.glossaryMisses,
    ...(detection ? { detection } : {}),
  };
}

export interface DocumentsTranslation extends WorkTally {
  /** In the order of the documents given. */
  readonly documents: ReadonlyArray<{ readonly translations: Record<string, string>; readonly detection?: DetectionResult }>;
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
  const { onTargetDone } = options;
  if (onTargetDone) return translateTargetByTarget(documents, options, onTargetDone);
  const work = await translateSegments(documents, options);
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
  const { usage, calls, cachedSegments, glossaryMisses } = work;
  return { documents: rendered, usage, calls, cachedSegments, glossaryMisses };
}

/**
 * As translatePreparedAll, but each target is rendered the moment its last segment is
 * translated and handed to `onTargetDone`, while other targets' calls still run.
 */
async function translateTargetByTarget(
  documents: readonly PreparedDocument[],
  options: TranslateOptions,
  onTargetDone: NonNullable<TranslateOptions['onTargetDone']>,
): Promise<DocumentsTranslation> {
  const renders: Promise<string[]>[] = new Array(options.targets.length);
  const work = await translateSegments(documents, options, (t, translations) => {
    const target = options.targets[t]!;
    const render = Promise.all(
      documents.map(async (document, index) => {
        const rendered = await document.renderAll([
          { key: target.requested, target: { code: target.language.code, rtl: target.language.rtl }, translations: translations[index]! },
        ]);
        return rendered[target.requested]!;
      }),
    ).then((texts) => {
      onTargetDone(target, texts);
      return texts;
    });
    // Awaited below; a failure meanwhile must not count as unhandled.
    render.catch(() => {});
    renders[t] = render;
  });
  const byTarget = await Promise.all(renders);
  const rendered = documents.map((document, index) => ({
    translations: Object.fromEntries(options.targets.map((target, t) => [target.requested, byTarget[t]![index]!])),
    ...(document.detection ? { detection: document.detection } : {}),
  }));
  const { usage, calls, cachedSegments, glossaryMisses } = work;
  return { documents: rendered, usage, calls, cachedSegments, glossaryMisses };
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
