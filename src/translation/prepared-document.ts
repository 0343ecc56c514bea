/**
 * A document ready to translate: its segments (what the engine sees) and a way to render
 * it back once per target. Small documents are extracted and rendered inline; large ones
 * live in a worker thread (document-pool.ts) so parsing and rendering never hold the event
 * loop. Callers see the same shape either way and must `release()` it when done, also on
 * failure, so a pooled document's template is freed in its worker.
 */
import type { DetectionResult, ExtractedDocument, Format, RenderTarget } from '../formats/format.js';
import type { Segment } from '../segments/segment.js';

/** One rendering: the document in `target`, answered under `key` (the caller's spelling). */
export interface RenderRequest {
  readonly key: string;
  readonly target: RenderTarget;
  /** The translation of each segment, aligned with `segments` by index. */
  readonly translations: readonly string[];
}

export interface PreparedDocument {
  readonly format: Format;
  /** In document order; ids are unique within the document. */
  readonly segments: readonly Segment[];
  /** Present when the format was omitted and detection ran. */
  readonly detection?: DetectionResult;
  /** The language the file names for its source (ExtractedDocument.sourceLanguage), as it spells it. */
  readonly sourceLanguage?: string;
  /** o200k count of each segment's text, aligned with `segments`, when computed off the loop. */
  readonly tokenCounts?: ArrayLike<number>;
  /** One document per request, keyed by `key`. Rejects once the document is released. */
  renderAll(requests: readonly RenderRequest[]): Promise<Record<string, string>>;
  /** Frees the template (in its worker when pooled). Idempotent. */
  release(): void;
}

/** The inline implementation: the ExtractedDocument on this thread. */
export function inlineDocument(document: ExtractedDocument, detection: DetectionResult | undefined): PreparedDocument {
  let released = false;
  return {
    format: document.format,
    segments: document.segments,
    ...(detection ? { detection } : {}),
    ...(document.sourceLanguage ? { sourceLanguage: document.sourceLanguage } : {}),
    async renderAll(requests) {
      if (released) throw new Error('the document was released before rendering');
      const out: Record<string, string> = {};
      for (const { key, target, translations } of requests) {
        out[key] = document.render(translations, target);
      }
      return out;
    },
    release() {
      released = true;
    },
  };
}
