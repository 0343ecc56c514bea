/**
 * The one way an untrusted document is read, inline or in a document worker: detect the
 * format when it is omitted, extract within the configured limits, and turn what a
 * reader cannot survive into 422 document_too_complex instead of a 500 — a stack that
 * overflows on deep nesting, or more segments than the limit (a net under the readers'
 * own checks).
 */
import { ServiceError } from '../errors.js';
import type { DetectionResult, ExtractedDocument, Format } from '../formats/format.js';
import { detectFormat, getAdapter } from '../formats/index.js';
import { DEFAULT_DOCUMENT_LIMITS, tooComplex, type DocumentLimits } from '../formats/limits.js';

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
    return { document, ...(detection ? { detection } : {}) };
  });
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
