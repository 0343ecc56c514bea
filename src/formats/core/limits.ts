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

/**
 * Refuses JSON nested deeper than `limit` before a recursive parser sees it (jsonc-parser's
 * parseTree recurses once per level: a hostile `[[[[…` would overflow the stack, a 500,
 * instead of being refused).
 */
export function checkJsonNesting(content: string, limit: number): void {
  if (jsonNestsDeeperThan(content, limit)) throw tooComplex('the nesting of JSON objects and arrays', limit);
}

/**
 * Whether the JSON text's arrays and objects nest deeper than `max`, in one pass that
 * jumps over strings with indexOf (a long string is passed over in one step; a request
 * body's document is one). Malformed text is left to the parser.
 */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      let end = i;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end < 0) return false;
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 92 /* \ */) slashes++;
        if (slashes % 2 === 0) break;
      }
      i = end;
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return false;
}

/** The error a reader throws when a document goes past one of its limits. */
export function tooComplex(what: string, limit: number): ServiceError {
  return new ServiceError(
    'document_too_complex',
    `The document is too complex to process: ${what} goes past the limit of ${limit}; simplify or split it.`,
  );
}
