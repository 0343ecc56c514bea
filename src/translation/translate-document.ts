/**
 * One document into many targets: detect the format if needed, extract segments,
 * translate each distinct segment once (chunked to the engine's budget), check every
 * answer, and render one document per target. The synchronous routes and the job
 * worker both call this.
 */
import type { EngineLanguage, TokenUsage, TranslationEngine } from '../engines/engine.js';
import { EngineError } from '../engines/engine.js';
import type { DetectionResult, Format } from '../formats/format.js';
import type { DocumentLimits } from '../formats/limits.js';
import { tokenProblem, type Segment } from '../formats/segment.js';
import type { Language } from '../languages.js';
import { DocumentPool } from './document-pool.js';
import { extractDocument } from './extract-document.js';
import { planChunks } from './plan.js';
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
  readonly detection?: DetectionResult;
}

/** Chunks of one document translated at once; the engine caps calls per provider itself. */
const CHUNK_CONCURRENCY = 4;

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

export async function translatePrepared(options: {
  prepared: PreparedDocument;
  targets: readonly RequestedTarget[];
  source?: Language;
  engine: TranslationEngine;
  signal?: AbortSignal;
}): Promise<DocumentTranslation> {
  const { prepared, targets, engine, signal } = options;
  const { segments, tokenCounts } = prepared;

  // Identical segments are translated once: the first carries the text for all.
  const representative = new Map<string, Segment>();
  const representativeOf: Segment[] = [];
  for (const segment of segments) {
    const key = `${segment.singleLine ? 1 : 0}\u0000${segment.text}`;
    const first = representative.get(key) ?? segment;
    representative.set(key, first);
    representativeOf.push(first);
  }
  const unique = [...representative.values()];

  const engineTargets: EngineLanguage[] = targets.map((t) => t.language);
  // Counts made in a document worker spare the loop one o200k pass over the document.
  const counted = tokenCounts && new Map(segments.map((segment, i) => [segment.id, tokenCounts[i]!]));
  const chunks = planChunks(unique, engineTargets, engine.budget, counted && ((segment) => counted.get(segment.id)!));
  const byTarget = new Map<string, Map<string, string>>(engineTargets.map((t) => [t.code, new Map()]));
  let inputTokens = 0;
  let outputTokens = 0;

  await runLimited(chunks, CHUNK_CONCURRENCY, async (chunk) => {
    const result = await engine.translate({
      segments: chunk.segments,
      targets: chunk.targets,
      ...(options.source ? { source: options.source } : {}),
      format: prepared.format,
      ...(signal ? { signal } : {}),
    });
    inputTokens += result.usage.inputTokens;
    outputTokens += result.usage.outputTokens;
    for (const target of chunk.targets) {
      const translated = result.translations.get(target.code);
      for (const segment of chunk.segments) {
        const text = translated?.get(segment.id);
        if (text === undefined) throw new EngineError('the model did not translate every segment', true);
        const problem = tokenProblem(segment.text, text);
        if (problem) throw new EngineError(`the model broke the document's markup (${problem})`, true);
        byTarget.get(target.code)!.set(segment.id, text);
      }
    }
  });

  signal?.throwIfAborted();
  const requests: RenderRequest[] = targets.map(({ requested, language }) => {
    const unique = byTarget.get(language.code)!;
    return {
      key: requested,
      target: { code: language.code, rtl: language.rtl },
      translations: representativeOf.map((segment) => unique.get(segment.id)!),
    };
  });
  const translations = await prepared.renderAll(requests);
  return {
    translations,
    usage: { inputTokens, outputTokens },
    ...(prepared.detection ? { detection: prepared.detection } : {}),
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
