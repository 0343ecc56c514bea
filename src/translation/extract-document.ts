/**
 * The one way an untrusted document is read, inline or in a document worker: detect the
 * format when it is omitted, extract within the configured limits, and turn what a
 * reader cannot survive into 422 document_too_complex instead of a 500 — a stack that
 * overflows on deep nesting, or more segments than the limit (a net under the readers'
 * own checks), or one segment carrying more tokens than MAX_TOKENS_PER_SEGMENT.
 */
import { ServiceError } from '../errors.js';
import { DEFAULT_DOCUMENT_LIMITS, tooComplex, type DetectionResult, type DocumentLimits, type ExtractedDocument, type Format } from '../formats/format.js';
import { detectFormat, getAdapter } from '../formats/index.js';
import { SEGMENT_MARK_PATTERN } from '../segments/segment.js';

/**
 * Markup and placeholder tokens (`<gN>`, `</gN>`, `<xN/>`) one segment may carry. A real
 * paragraph has tens; each segment's tokens are checked on the main thread after every
 * model call, so a segment of hundreds of thousands held the loop for most of a second
 * (docs/benchmarks.md), and no model answers such a segment whole.
 */
export const MAX_TOKENS_PER_SEGMENT = 10_000;

export interface Extraction {
  readonly document: ExtractedDocument;
  readonly detection?: DetectionResult;
}

export function extractDocument(
  content: string,
  format: Format | undefined,
  limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS,
): Extraction {
  return asTooComplex(() => {
    const detection = format === undefined ? detectFormat(content) : undefined;
    const document = getAdapter(format ?? detection!.format).extract(content, limits);
    if (document.segments.length > limits.maxSegments) throw tooComplex('the number of segments', limits.maxSegments);
    for (const segment of document.segments) {
      if (countTokenMarks(segment.text) > MAX_TOKENS_PER_SEGMENT) {
        throw tooComplex('the number of markup and placeholder tokens in one paragraph', MAX_TOKENS_PER_SEGMENT);
      }
    }
    return { document, ...(detection ? { detection } : {}) };
  });
}

function countTokenMarks(text: string): number {
  if (text.length < MAX_TOKENS_PER_SEGMENT * 4) return 0; // the shortest token is 4 characters (`<g1>`)
  let count = 0;
  for (const _ of text.matchAll(SEGMENT_MARK_PATTERN)) count++;
  return count;
}

/** Runs `work`; a stack overflow (nesting no reader should recurse into) becomes document_too_complex. */
export function asTooComplex<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      throw new ServiceError(
        'document_too_complex',
        'The document is too complex to process: it nests too deeply; simplify or split it.',
      );
    }
    throw error;
  }
}
