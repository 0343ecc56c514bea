/**
 * Where the html adapter puts its segments: straight into the template's DocumentBuilder
 * (the html format: no draft or part objects), or into SegmentDraft objects (HTML inside
 * markdown, whose adapter merges them with its own drafts). The adapter gives tokens in
 * order and only complete pairs (an open followed by its close), as the builder requires.
 */
import { CLOSE, OPEN } from './document.js';
import type { Escaper, Part, SegmentDraft } from './document.js';
import type { SegmentKind } from '../../segments/segment.js';
import { mayHoldPlaceholder, scanPlaceholders, scanRange, SpanList } from './placeholders.js';

/** The part of DocumentBuilder the adapter uses. */
export interface SegmentSink {
  begin(start: number, end: number, kind: SegmentKind, escape: Escaper, ctx?: string, singleLine?: boolean): void;
  /** Decoded text. */
  text(value: string): void;
  /** A token whose bytes are `source[start, end)` (ATOM, or OPEN/CLOSE linked by `pair`). */
  token(type: number, start: number, end: number, pair: number): void;
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

  token(type: number, start: number, end: number, pair: number): void {
    const bytes = { start, end };
    if (type === OPEN) this.#draft!.parts.push({ type: 'open', bytes, pair });
    else if (type === CLOSE) this.#draft!.parts.push({ type: 'close', bytes, pair });
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

/** Spans of one text run at a time (never nested: `decode` does not mask). */
const spans = new SpanList();
const NO_OPTIONS = {};

/**
 * The raw text `source[start, end)` into `sink`: placeholders become tokens (their source
 * bytes), the text between them is decoded by `decode`. Used by the html and markdown
 * adapters (json and plain, which need no decoding, use core/placeholders.ts's maskRange).
 */
export function maskText(sink: SegmentSink, source: string, start: number, end: number, decode: (raw: string) => string): void {
  if (end <= start) return;
  if (!mayHoldPlaceholder(source, start, end)) {
    sink.text(decode(source.slice(start, end)));
    return;
  }
  // Spans as source offsets: read in place, or from a scan of the slice when that declines.
  let shift = 0;
  if (!scanRange(source, start, end, NO_OPTIONS, spans)) {
    scanPlaceholders(source.slice(start, end), NO_OPTIONS, spans);
    shift = start;
  }
  const data = spans.data;
  const count = spans.length;
  let last = start;
  for (let k = 0; k < count; k += 4) {
    const spanStart = data[k]! + shift;
    const spanEnd = data[k + 1]! + shift;
    if (spanStart > last) sink.text(decode(source.slice(last, spanStart)));
    sink.token(data[k + 2]!, spanStart, spanEnd, data[k + 3]!);
    last = spanEnd;
  }
  if (last < end) sink.text(decode(source.slice(last, end)));
}
