/**
 * HTML with htmlparser2 (measured ~6× faster than parse5 here; it inserts no implied
 * elements, so every event maps to real bytes). Block elements bound segments; inline
 * elements with text become pairs whose tokens are the original tag bytes; void and
 * embedded elements, `code samp var` and `translate="no"`/`.notranslate` subtrees
 * are atoms (`kbd` is translated: keys are localised, Ctrl is Strg in German); `script style pre template textarea` (and untranslatable blocks) are
 * skipped whole. Translatable attribute values are `attr` segments spliced in place.
 *
 * html/tree.ts turns htmlparser2's tokenizer events into Parser's element events,
 * html/attributes.ts reads start tags' attributes, core/segment-sink.ts is where segments go.
 * Nothing here makes an object per event, item or attribute: a 2 MiB page has ~10⁵ of
 * each, and the allocations were most of the cost.
 */
import { decodeHTML } from 'entities/decode';
import { hasSpaceToCollapse, htmlSourceText, skipLeadingSpace, skipTrailingSpace } from './text.js';
import type { FormatAdapter } from '../format.js';
import { AttributeList, directionPatches } from './attributes.js';
import { DraftCollector } from '../core/segment-sink.js';
import { PlaceholderScanner } from '../core/placeholders.js';
import type { TextRun } from '../core/placeholders.js';
import type { SegmentSink } from '../core/segment-sink.js';
import { ElementKind, elementKinds } from './elements.js';
import { HtmlTree } from './tree.js';
import type { TagAttributes, TreeHandler } from './tree.js';
import { DEFAULT_DOCUMENT_LIMITS, tooComplex } from '../core/limits.js';
import type { DocumentLimits } from '../core/limits.js';
import type { SegmentKind } from '../../segments/segment.js';
import { ATOM, CLOSE, DocumentBuilder, newPairId, OPEN } from '../core/document.js';
import type { Patch, SegmentDraft } from '../core/document.js';
import * as charCodes from '../core/char-codes.js';
// Module-local constants, not imported bindings, for the inner loops (why: core/char-codes.ts).
const { CARRIAGE_RETURN, LINE_FEED, LOWER_H, SPACE, TAB } = charCodes;

/** Decoded text with whitespace runs shown as one space (most runs need neither step). */
function collapse(text: string): string {
  const decoded = decodeHTML(text);
  return hasSpaceToCollapse(decoded) ? decoded.replace(/[ \t\n\r\f]+/g, ' ') : decoded;
}

/** Text runs of the page: references decoded, white space shown as one space. */
const HTML_TEXT: TextRun = { inSource: true, decode: collapse };

function isNoTranslate(attribs: TagAttributes): boolean {
  const { translate, class: className } = attribs;
  if (translate !== undefined && translate.toLowerCase() === 'no') return true;
  return className !== undefined && /(?:^|\s)notranslate(?:\s|$)/.test(className);
}

type Mode = 'block' | 'inline' | 'atomic' | 'skip' | 'inside';

const NO_ITEM = -1;

/** The open elements, innermost last, as parallel arrays (no object per element). */
class ElementStack {
  readonly starts: number[] = [];
  /** The run an element's start tag was put in (paired inline elements). */
  readonly runs: number[] = [];
  /** The index of an inline element's start tag in that run (NO_ITEM: it was not put in one). */
  readonly items: number[] = [];
  readonly modes: Mode[] = [];
  length = 0;

  push(start: number, run: number, item: number, mode: Mode): void {
    const i = this.length++;
    this.starts[i] = start;
    this.runs[i] = run;
    this.items[i] = item;
    this.modes[i] = mode;
  }

  /** Removes the innermost element and returns its index (read it before the next push), or -1. */
  pop(): number {
    return this.length > 0 ? --this.length : -1;
  }
}

/** Run items are tokens (ATOM, OPEN, CLOSE as in the template) or TEXT. */
const TEXT = 3;
type ItemType = typeof ATOM | typeof OPEN | typeof CLOSE | typeof TEXT;

/**
 * The inline items between two block boundaries (text, atoms, pair tags), kept as
 * parallel arrays that every run reuses: a 2 MiB page has ~10⁵ items, and an object per
 * item was a large part of the garbage collector's work.
 */
class Run {
  readonly types: ItemType[] = [];
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  /** Pair id of OPEN/CLOSE items. */
  readonly pairs: number[] = [];
  /** For an OPEN its CLOSE's index, and the reverse (NO_ITEM: none in this run). */
  readonly partners: number[] = [];
  length = 0;
  /** Which run this is; inline elements remember it to know if their close tag is in the same run. */
  id = 0;

  push(type: ItemType, start: number, end: number, pair = 0): number {
    const i = this.length++;
    this.types[i] = type;
    this.starts[i] = start;
    this.ends[i] = end;
    this.pairs[i] = pair;
    this.partners[i] = NO_ITEM;
    return i;
  }

  /** The close tag of the OPEN item `open`. */
  pushClose(open: number, start: number, end: number): void {
    const close = this.push(CLOSE, start, end, this.pairs[open]);
    this.partners[open] = close;
    this.partners[close] = open;
  }

  /** Text extends a text item it directly follows (an entity split it, or a skipped comment did not). */
  pushText(start: number, end: number): void {
    const last = this.length - 1;
    if (last >= 0 && this.types[last] === TEXT && this.ends[last] === start) this.ends[last] = end;
    else this.push(TEXT, start, end);
  }

  next(): void {
    this.length = 0;
    this.id++;
  }
}

export interface HtmlOptions {
  /** Whether lang/dir patches apply (not for HTML embedded in markdown). */
  readonly directionPatches: boolean;
  /**
   * HTML embedded in markdown: line breaks are structure there (a line that starts with
   * `<` opens an HTML block, an indented `- ` a list), so they become atomic tokens
   * instead of collapsing to spaces, and the tag that opens the HTML block (with its
   * end tag) stays outside any segment, where nothing a translation adds (a
   * right-to-left mark, a word) can land in front of it. Segments are otherwise the
   * html adapter's, right-to-left wrap included.
   */
  readonly inMarkdown?: boolean;
  /**
   * HTML in a markdown block quote: how many `>` open each of its lines. The `>`s after a
   * line break are the quote's, not text (given as text, a translation escaped them to
   * `&gt;` and the line left the quote).
   */
  readonly quoteDepth?: number;
  /** DEFAULT_DOCUMENT_LIMITS when omitted; only the nesting depth is read here. */
  readonly limits?: DocumentLimits;
  /** The document's placeholder scanner (markdown hands its own to the HTML inside it); a new one when omitted. */
  readonly placeholders?: PlaceholderScanner;
}

/**
 * Turns htmlparser2's events into segments. One instance per call; its methods are the
 * event handlers (no closures are made per event). Event positions are relative to
 * `source[from, to)`, which is what is parsed.
 */
class SegmentMaker implements TreeHandler {
  readonly patches: Patch[] = [];
  readonly #stack = new ElementStack();
  /** Names of the open block elements (the innermost is a segment's `ctx`). */
  readonly #blocks: string[] = [];
  readonly #run = new Run();
  /** Translatable attributes of the current run's tags, given after the run's segment. */
  readonly #attributes = new AttributeList();
  /** Depth inside an atomic or skipped subtree. */
  #hidden = 0;
  /**
   * The depth inside it from which attributes are not translated either (0: they are).
   * An atom's content is not text to translate, but attributes in it may be: `label` of
   * a `<track>` in a `<video>`, `alt` of an `<img>` in a `<picture>` or of an `<area>`
   * in a `<map>`. Code-like, untranslated and skipped subtrees keep theirs.
   */
  #attributesOffFrom = 0;
  #lastEnd: number;
  #htmlTagSeen = false;
  readonly #fullDocument: boolean;
  readonly #maxDepth: number;
  readonly #placeholders: PlaceholderScanner;
  /** In markdown, where the tag opening the HTML block starts (see HtmlOptions.inMarkdown); else -1. */
  readonly #blockOpening: number;
  /** In a markdown block quote, the quote prefixes of the block's lines (see HtmlOptions.quoteDepth). */
  readonly #prefixes: QuotePrefixes | undefined;

  constructor(
    private readonly sink: SegmentSink,
    private readonly source: string,
    private readonly from: number,
    private readonly to: number,
    private readonly options: HtmlOptions,
  ) {
    this.#lastEnd = from;
    this.#maxDepth = (options.limits ?? DEFAULT_DOCUMENT_LIMITS).maxNestingDepth;
    this.#placeholders = options.placeholders ?? new PlaceholderScanner();
    this.#fullDocument = /<html[\s>/]/i.test(source.slice(from, Math.min(to, from + 65536)));
    this.#blockOpening = options.inMarkdown === true ? skipLeadingSpace(source, from, to) : -1;
    this.#prefixes = options.inMarkdown === true && (options.quoteDepth ?? 0) > 0 ? quotePrefixes(source, from, to, options.quoteDepth!) : undefined;
  }

  build(): void {
    new HtmlTree(this).parse(this.source.slice(this.from, this.to));
    this.#flush();
  }

  /** Ends the current run: its segment, then the attribute segments inside it. */
  #flush(): void {
    const run = this.#run;
    if (run.length > 0) {
      const block = this.#blocks[this.#blocks.length - 1] ?? 'body';
      runSegment(this.sink, this.#placeholders, this.source, run, block, this.options.inMarkdown === true, this.#blockOpening, this.#prefixes);
    }
    if (this.#attributes.length > 0) this.#attributes.flushTo(this.sink, this.#placeholders, this.source);
    run.next();
  }

  openTag(name: string, attribs: TagAttributes, isImplied: boolean, tagStart: number, tagEnd: number): void {
    const start = isImplied ? this.#lastEnd : this.from + tagStart;
    const end = isImplied ? this.#lastEnd : this.from + tagEnd;
    if (!isImplied) this.#lastEnd = end;
    const kinds = elementKinds(name);
    const isVoid = (kinds & ElementKind.Void) !== 0;
    // Nothing here recurses, but a page nested far deeper than real ones is a hostile
    // one: refused (document_too_complex), not worked on.
    if (this.#stack.length >= this.#maxDepth && !isVoid) throw tooComplex('element nesting', this.#maxDepth);
    if (this.#hidden > 0) {
      if (!isImplied && this.#attributesOffFrom === 0) {
        if (isNoTranslate(attribs) || (kinds & (ElementKind.NoAttributes | ElementKind.Skipped)) !== 0) {
          if (!isVoid) this.#attributesOffFrom = this.#hidden + 1;
        } else {
          this.#attributes.addFrom(this.source, name, start, end, attribs);
        }
      }
      if (!isVoid) {
        this.#stack.push(start, 0, NO_ITEM, 'inside');
        this.#hidden++;
      }
      return;
    }
    const noTranslate = isNoTranslate(attribs);
    if (!isImplied && this.options.directionPatches) {
      if (name === 'html' && !this.#htmlTagSeen) {
        this.#htmlTagSeen = true;
        directionPatches(this.#attributes.cursor, this.source, name, start, end, this.patches);
      } else if (!this.#fullDocument && this.#stack.length === 0 && (kinds & ElementKind.NoDirection) === 0) {
        directionPatches(this.#attributes.cursor, this.source, name, start, end, this.patches);
      }
    }
    const block = (kinds & (ElementKind.Block | ElementKind.Skipped)) !== 0;
    // A block's start tag ends the run before it, so its attributes come after that run's segment.
    if (block) this.#flush();
    if (!isImplied && !noTranslate && (kinds & ElementKind.NoAttributes) === 0) {
      this.#attributes.addFrom(this.source, name, start, end, attribs);
      if (block) this.#attributes.flushTo(this.sink, this.#placeholders, this.source);
    }
    let mode: Mode;
    if (block) {
      mode = (kinds & ElementKind.Skipped) !== 0 || noTranslate ? 'skip' : 'block';
      if (mode === 'block') this.#blocks.push(name);
    } else if (isVoid || noTranslate || (kinds & ElementKind.Atomic) !== 0) {
      mode = 'atomic';
    } else {
      mode = 'inline';
    }
    if (isVoid) {
      if (mode === 'atomic' && end > start) this.#run.push(ATOM, start, end);
      if (mode === 'block') this.#blocks.pop();
      return;
    }
    let item = NO_ITEM;
    if (mode === 'atomic' || mode === 'skip') {
      this.#hidden = 1;
      this.#attributesOffFrom = mode === 'atomic' && !noTranslate && (kinds & ElementKind.NoAttributes) === 0 ? 0 : 1;
    }
    else if (mode === 'inline' && end > start) item = this.#run.push(OPEN, start, end, newPairId());
    this.#stack.push(start, this.#run.id, item, mode);
  }

  closeTag(name: string, isImplied: boolean, tagStart: number, tagEnd: number): void {
    if ((elementKinds(name) & ElementKind.Void) !== 0) return;
    const stack = this.#stack;
    const element = stack.pop();
    if (element < 0) return;
    const closeStart = isImplied ? this.#lastEnd : this.from + tagStart;
    const closeEnd = isImplied ? this.#lastEnd : this.from + tagEnd;
    if (!isImplied) this.#lastEnd = closeEnd;
    switch (stack.modes[element]) {
      case 'inside':
        if (this.#hidden === this.#attributesOffFrom) this.#attributesOffFrom = 0;
        this.#hidden--;
        return;
      case 'atomic':
        this.#hidden = 0;
        this.#run.push(ATOM, stack.starts[element]!, closeEnd);
        return;
      case 'skip':
        this.#hidden = 0;
        return;
      case 'block':
        this.#flush();
        this.#blocks.pop();
        return;
      case 'inline':
        if (closeEnd > closeStart) {
          // A close tag in another run than its start tag cannot be a pair: an atom.
          const item = stack.items[element]!;
          if (item !== NO_ITEM && stack.runs[element] === this.#run.id) this.#run.pushClose(item, closeStart, closeEnd);
          else this.#run.push(ATOM, closeStart, closeEnd);
        }
    }
  }

  text(start: number, end: number): void {
    this.#lastEnd = this.from + end;
    if (this.#hidden === 0) this.#run.pushText(this.from + start, this.from + end);
  }

  other(end: number): void {
    this.#lastEnd = this.from + end;
  }
}

/** Segment drafts and lang/dir patches for the HTML in `source[from, to)` (HTML inside markdown). */
export function htmlDrafts(
  source: string,
  from = 0,
  to = source.length,
  options: HtmlOptions = { directionPatches: true },
): { drafts: SegmentDraft[]; patches: Patch[] } {
  const drafts = new DraftCollector();
  const patches = htmlSegments(drafts, source, from, to, options);
  return { drafts: drafts.drafts, patches };
}

/**
 * Gives a run of inline items to `sink` as one segment: outer whitespace stays outside
 * it, gaps between items (bytes no event covered) are atoms, and a tag whose partner is
 * outside the segment is an atom too. An item starting at `keptOutside` (the tag that
 * opens a markdown HTML block) and its partner are left out of the segment.
 */
function runSegment(
  sink: SegmentSink,
  placeholders: PlaceholderScanner,
  source: string,
  run: Run,
  block: string,
  inMarkdown: boolean,
  keptOutside: number,
  prefixes: QuotePrefixes | undefined,
): void {
  const { types, starts, ends, pairs, partners } = run;
  let first = 0;
  let last = run.length - 1;
  let start = -1;
  let end = -1;
  let partnerLeftOut = NO_ITEM;
  for (; first <= last; first++) {
    if (starts[first] === keptOutside && types[first] !== TEXT) {
      if (types[first] === OPEN) partnerLeftOut = partners[first]!;
      continue;
    }
    if (types[first] !== TEXT) {
      start = starts[first]!;
      break;
    }
    const s = prefixes ? prefixes.skipLeading(source, starts[first]!, ends[first]!) : skipLeadingSpace(source, starts[first]!, ends[first]!);
    if (s < ends[first]!) {
      start = s;
      break;
    }
  }
  for (; last >= first; last--) {
    if (last === partnerLeftOut) continue;
    if (types[last] !== TEXT) {
      end = ends[last]!;
      break;
    }
    const e = prefixes ? prefixes.skipTrailing(source, starts[last]!, ends[last]!) : skipTrailingSpace(source, starts[last]!, ends[last]!);
    if (e > starts[last]!) {
      end = e;
      break;
    }
  }
  if (start < 0 || end <= start) return;
  sink.begin(start, end, kindOf(block), htmlSourceText, block);
  let cursor = start;
  for (let i = first; i <= last; i++) {
    const type = types[i]!;
    const s = Math.max(starts[i]!, start);
    const e = Math.min(ends[i]!, end);
    if (s > cursor) sink.mark(ATOM, cursor, s, 0);
    if (type === TEXT) {
      if (inMarkdown) textWithLineBreaks(sink, placeholders, source, s, e, prefixes);
      else placeholders.mask(sink, source, s, e, HTML_TEXT);
    } else if (type === ATOM) {
      sink.mark(ATOM, s, e, 0);
    } else {
      const partner = partners[i]!;
      const paired = partner >= first && partner <= last;
      sink.mark(paired ? type : ATOM, s, e, paired ? pairs[i]! : 0);
    }
    cursor = Math.max(cursor, e);
  }
  sink.commit();
}

function kindOf(block: string): SegmentKind {
  if (block.length === 2 && block.charCodeAt(0) === LOWER_H && block >= 'h1' && block <= 'h6') return 'heading';
  return block === 'td' || block === 'th' ? 'cell' : 'block';
}

/** Text whose line breaks (with the next line's indentation and quote prefix) are atoms, so they survive as they are. */
function textWithLineBreaks(sink: SegmentSink, placeholders: PlaceholderScanner, source: string, start: number, end: number, prefixes: QuotePrefixes | undefined): void {
  const raw = source.slice(start, end);
  let last = 0;
  for (const lineBreak of raw.matchAll(/\r?\n[ \t]*/g)) {
    if (lineBreak.index < last) continue; // (inside the quote prefix taken with the last one)
    if (lineBreak.index > last) placeholders.mask(sink, source, start + last, start + lineBreak.index, HTML_TEXT);
    let breakEnd = start + lineBreak.index + lineBreak[0].length;
    const prefixEnd = prefixes?.endOf(start + lineBreak.index + (raw.charCodeAt(lineBreak.index) === CARRIAGE_RETURN ? 2 : 1));
    if (prefixEnd !== undefined) {
      let after = prefixEnd;
      while (after < end && (source.charCodeAt(after) === SPACE || source.charCodeAt(after) === TAB)) after++;
      breakEnd = Math.min(end, Math.max(breakEnd, after));
    }
    sink.mark(ATOM, start + lineBreak.index, breakEnd, 0);
    last = breakEnd - start;
  }
  if (last < raw.length) placeholders.mask(sink, source, start + last, end, HTML_TEXT);
}

/**
 * The quote prefixes (`> `, `> > `) opening the lines of an HTML block in a markdown
 * block quote, after its first line: to the html rules they are whitespace, not text.
 */
class QuotePrefixes {
  /** Line start → the end of its prefix, and the reverse. */
  readonly #ends = new Map<number, number>();
  readonly #starts = new Map<number, number>();

  add(start: number, end: number): void {
    this.#ends.set(start, end);
    this.#starts.set(end, start);
  }

  /** The end of the prefix opening the line that starts at `lineStart`, if it has one. */
  endOf(lineStart: number): number | undefined {
    return this.#ends.get(lineStart);
  }

  /** skipLeadingSpace, also over the prefixes after line breaks. */
  skipLeading(source: string, start: number, end: number): number {
    let i = skipLeadingSpace(source, start, end);
    for (let lineStart = lineStartBefore(source, start, i); lineStart >= 0; lineStart = lineStartBefore(source, start, i)) {
      const prefixEnd = this.#ends.get(lineStart);
      if (prefixEnd === undefined || prefixEnd <= i || prefixEnd > end) break;
      i = skipLeadingSpace(source, prefixEnd, end);
    }
    return i;
  }

  /** skipTrailingSpace, also over the prefixes after line breaks. */
  skipTrailing(source: string, start: number, end: number): number {
    let i = skipTrailingSpace(source, start, end);
    for (let prefixStart = this.#starts.get(i); prefixStart !== undefined && prefixStart >= start; prefixStart = this.#starts.get(i)) {
      i = skipTrailingSpace(source, start, prefixStart);
    }
    return i;
  }
}

/** The start of the last line that begins in `source(from, at]` (just after a line break), or -1. */
function lineStartBefore(source: string, from: number, at: number): number {
  for (let i = at - 1; i >= from; i--) {
    const c = source.charCodeAt(i);
    if (c === LINE_FEED) return i + 1;
    if (c !== SPACE && c !== TAB && c !== CARRIAGE_RETURN) return -1;
  }
  return -1;
}

/** The prefixes of the lines of `source[from, to)` after the first: up to `depth` `>`, each after optional indentation. */
function quotePrefixes(source: string, from: number, to: number, depth: number): QuotePrefixes {
  const prefixes = new QuotePrefixes();
  const prefix = new RegExp(String.raw`(?:[ \t]*>){1,${depth}}`, 'y');
  for (let i = source.indexOf('\n', from); i >= 0 && i < to; i = source.indexOf('\n', i + 1)) {
    prefix.lastIndex = i + 1;
    if (prefix.test(source) && prefix.lastIndex <= to) prefixes.add(i + 1, prefix.lastIndex);
  }
  return prefixes;
}

/**
 * The segments of the HTML in `source[from, to)`, given straight to `out` (a
 * DocumentBuilder over `source`), in source order; returns the lang/dir patches.
 */
export function htmlSegments(
  out: SegmentSink,
  source: string,
  from = 0,
  to = source.length,
  options: HtmlOptions = { directionPatches: true },
): Patch[] {
  const maker = new SegmentMaker(out, source, from, to, options);
  maker.build();
  return maker.patches;
}

export const htmlAdapter: FormatAdapter = {
  format: 'html',
  extract(content, limits = DEFAULT_DOCUMENT_LIMITS) {
    const out = new DocumentBuilder('html', content);
    const doc = out.document(htmlSegments(out, content, 0, content.length, { directionPatches: true, limits }));
    if (doc.segments.length > limits.maxSegments) throw tooComplex('the number of segments', limits.maxSegments);
    return doc;
  },
};
