/**
 * The source language of a request that omits it: detected on the text of the document's
 * segments with their marks removed (never on the markup, whose tag and attribute names
 * are English whatever the text), reported to the caller, and passed to the model as the
 * source when the detector is confident enough (docs/decisions/0026). A locale file that
 * names its source language is taken at its word instead (docs/decisions/0101).
 */
import type { LanguageDetector, SourceDetection } from '../detection/detect-language.js';
import { findLanguage, type Language } from '../languages.js';
import { SEGMENT_MARK_PATTERN } from '../segments/segment.js';
import type { PreparedDocument } from './prepared-document.js';

export type { SourceDetection } from '../detection/detect-language.js';

/**
 * Below this confidence the model gets no source line and identifies the language itself:
 * a wrong hint misleads it more than no hint (bench/detection: short UI strings are where
 * the detector errs, and its confidence is lower there).
 */
export const HINT_CONFIDENCE = 0.6;

/** What `source_confidence` reports for a source the file itself names. */
export const DECLARED_CONFIDENCE = 1;


export interface ResolvedSource {
  /** What the model is told and the memory key holds: the request's source, else a confident hint. */
  readonly source?: Language;
  /** One per document, when the request named no source (undefined where nothing could be judged). */
  readonly detections?: ReadonlyArray<SourceDetection | undefined>;
}

/**
 * The source documents are translated from. /translate, batches, jobs and the estimate
 * all resolve it here, so they build the same memory keys and find each other's entries.
 */
export async function resolveSource(
  requested: Language | undefined,
  documents: readonly PreparedDocument[],
  detector: LanguageDetector,
): Promise<ResolvedSource> {
  if (requested) return { source: requested };
  // A file that names its source language (a po's `Language:`, XLIFF's `source-language`…)
  // is believed before the detector is asked (decision 0101).
  // Not an async function: the detector's own promise is awaited, without one around it.
  const detectSource = (document: PreparedDocument): Promise<SourceDetection | undefined> => {
    const declared = declaredSource(document);
    return declared ? Promise.resolve({ language: declared, confidence: DECLARED_CONFIDENCE }) : detector.detect(textsOf(document));
  };
  const detections = documents.length === 1 ? [await detectSource(documents[0]!)] : await Promise.all(documents.map(detectSource));
  const hint = sourceHint(detections);
  return hint ? { source: hint, detections } : { detections };
}

/** The source hint for documents translated together: one only when they all agree confidently. */
function sourceHint(detections: ReadonlyArray<SourceDetection | undefined>): Language | undefined {
  const first = detections[0];
  if (!first) return undefined;
  const agree = detections.every((d) => d !== undefined && d.language === first.language && d.confidence >= HINT_CONFIDENCE);
  return agree ? first.language : undefined;
}

/**
 * The language a document's file names for its source, when the API lists it: the code
 * as written (`pt_BR` read as `pt-BR`), else its base language (`de-AT` as `de`).
 */
function declaredSource(document: PreparedDocument): Language | undefined {
  const code = document.sourceLanguage?.replaceAll('_', '-');
  if (!code) return undefined;
  return findLanguage(code) ?? findLanguage(code.split('-')[0]!);
}

function* textsOf(document: PreparedDocument): Iterable<string> {
  for (const segment of document.segments) yield segment.text.replace(SEGMENT_MARK_PATTERN, ' ');
}
