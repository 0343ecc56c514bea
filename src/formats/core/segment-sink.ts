/**
 * Where the html adapter puts its segments: straight into the template's DocumentBuilder
 * (the html format: no draft or part objects), or into SegmentDraft objects (HTML inside
 * markdown, whose adapter merges them with its own drafts). The adapter gives tokens in
 * order and only complete pairs (an open followed by its close), as the builder requires.
 */
import { CLOSE, OPEN } from './document.js';
import type { Escaper, Part, SegmentDraft } from './document.js';
import type { SegmentKind } from '../../segments/segment.js';

/** The part of DocumentBuilder the adapter uses. */
export interface SegmentSink {
  begin(start: number, end: number, kind: SegmentKind, escape: Escaper, ctx?: string, singleLine?: boolean): void;
  /** Decoded text. */
  text(value: string): void;
  /** A segment mark whose bytes are `source[start, end)` (ATOM, or OPEN/CLOSE linked by `pair`). */
  mark(kind: number, start: number, end: number, pair: number): void;
  commit(): unknown;
}

/**
 * A SegmentSink that makes SegmentDrafts, in the order their segments are given: for HTML
 * inside markdown, and for the markdown adapter's own draft output (markdownDrafts).
 */
export class DraftCollector implements SegmentSink {
  readonly drafts: SegmentDraft[] = [];
  #draft: OpenDraft | null = null;

  begin(start: number, end: number, kind: SegmentKind, escape: Escaper, ctx?: string, singleLine?: boolean, bidiInside?: boolean): void {
    const draft: OpenDraft = { start, end, parts: [], kind, escape };
    if (ctx !== undefined) draft.ctx = ctx;
    if (singleLine) draft.singleLine = true;
    if (bidiInside) draft.bidiInside = true;
    this.#draft = draft;
  }

  text(value: string): void {
    this.#draft!.parts.push({ type: 'text', value });
  }

  mark(kind: number, start: number, end: number, pair: number): void {
    const bytes = { start, end };
    if (kind === OPEN) this.#draft!.parts.push({ type: 'open', bytes, pair });
    else if (kind === CLOSE) this.#draft!.parts.push({ type: 'close', bytes, pair });
    else this.#draft!.parts.push({ type: 'atom', bytes });
  }

  commit(): void {
    this.drafts.push(this.#draft!);
    this.#draft = null;
  }

  /** A whole draft made elsewhere. */
  add(draft: SegmentDraft): void {
    this.drafts.push(draft);
  }
}

type OpenDraft = { start: number; end: number; parts: Part[]; kind: SegmentKind; ctx?: string; singleLine?: boolean; escape: Escaper; bidiInside?: boolean };
