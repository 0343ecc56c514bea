/**
 * The contract every format adapter keeps: a document becomes segments (human text
 * with opaque segment marks, see segments/segment.ts) plus a template, and renders back by replacing
 * only the segments' source ranges. Everything outside a segment stays byte-identical.
 */
import type { DocumentLimits } from './core/limits.js';
import type { Segment } from '../segments/segment.js';

/** The limits a document is read under: part of the public entry, for configuration and the document workers. */
export { DEFAULT_DOCUMENT_LIMITS, tooComplex } from './core/limits.js';
export type { DocumentLimits } from './core/limits.js';

/** The one list of format names lives beside the segment contract (engines name it too). */
export { FORMATS, LOCALE_FORMATS, isFormat } from '../segments/format-name.js';
export type { Format } from '../segments/format-name.js';
import type { Format } from '../segments/format-name.js';

/** What a render needs to know of the target language (html sets lang/dir from it). */
export interface RenderTarget {
  /** The canonical language code, e.g. `fr-CA`. */
  readonly code: string;
  readonly rtl: boolean;
}

/** Translations by segment id, or aligned with a document's segments by index. */
export type Translations = ReadonlyMap<string, string> | readonly (string | undefined)[];

export interface ExtractedDocument {
  readonly format: Format;
  /** In document order; ids are unique within the document. */
  readonly segments: readonly Segment[];
  /**
   * Rebuilds the document with each segment's text replaced by its translation
   * (masked text, same tokens as the source segment), given by segment id or aligned
   * with `segments` by index. A segment without one keeps its source text. Tokens are
   * unmasked to their original bytes.
   */
  render(translations: Translations, target: RenderTarget): string;
  /**
   * The language the file says its source text is in, as the file spells it (gettext's
   * `Language:`, XLIFF's `source-language` / `srcLang`, a Rails root key, ARB's
   * `@@locale`, a String Catalog's `sourceLanguage`): the hint when a request names no
   * source (decision 0101). Absent when the file says nothing.
   */
  readonly sourceLanguage?: string;
}

export interface FormatAdapter {
  readonly format: Format;
  /**
   * Throws ServiceError('invalid_request') when the content cannot be read as this
   * format, and ServiceError('document_too_complex') when it goes past `limits`
   * (DEFAULT_DOCUMENT_LIMITS when omitted).
   */
  extract(content: string, limits?: DocumentLimits): ExtractedDocument;
}

export interface DetectionResult {
  readonly format: Format;
  /** In [0, 1]. */
  readonly confidence: number;
}
