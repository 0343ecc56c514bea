/**
 * How much structure one document may carry before the service refuses it with 422
 * `document_too_complex` instead of working on it (docs/errors.md). Documents stay
 * within the body limit (2 MiB); these bound what a hostile one can make the readers do:
 * recursion depth (a stack overflow is a 500, not an answer) and the number of pieces
 * (time and memory grow with them). The defaults sit far above real documents; the
 * server takes them from configuration (src/config.ts) and passes them down.
 */
import { ServiceError } from '../../errors.js';

export interface DocumentLimits {
  /** Nesting of elements, list items, block quotes, JSON arrays and objects. */
  readonly maxNestingDepth: number;
  /** Nesting of ICU plural/select messages inside one another. */
  readonly maxPlaceholderDepth: number;
  /** Translatable segments in one document. */
  readonly maxSegments: number;
}

export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = Object.freeze({
  maxNestingDepth: 512,
  maxPlaceholderDepth: 32,
  maxSegments: 200_000,
});

/** The error a reader throws when a document goes past one of its limits. */
export function tooComplex(what: string, limit: number): ServiceError {
  return new ServiceError(
    'document_too_complex',
    `The document is too complex to process: ${what} goes past the limit of ${limit}; simplify or split it.`,
  );
}
