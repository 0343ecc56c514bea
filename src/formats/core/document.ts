/**
 * The shared core of every adapter: an adapter describes each segment as a source range
 * plus a list of parts (text runs and tokens whose bytes are source ranges or literal
 * bytes); this module numbers the tokens, builds the masked text, and renders by
 * splicing translations into the untouched source. Because every token is a source
 * range, a segment nested inside another's token (an image's alt inside the image
 * token) is spliced by the same recursion, and everything outside segments is copied.
 */
import { ServiceError } from '../../errors.js';
import type { ExtractedDocument, Format, RenderTarget, Translations } from '../format.js';
import { SEGMENT_MARK_PATTERN, markProblem } from '../../segments/segment.js';
import type { PluralMessage, Segment, SegmentKind } from '../../segments/segment.js';
import { findIcuPlurals, insideBranchesOnly, renameSelector, shapePlurals, type MarkAlias, type PluralShape } from './plural-shape.js';
import * as charCodes from './char-codes.js';
// Module-local constants, not imported bindings, for the inner loops (why: char-codes.ts).
const { ASCII_END, CASE_BIT, DIGIT_0, DIGIT_9, LOWER_A, LOWER_S, LOWER_X, LOWER_Z, SLASH } = charCodes;

/** Where a token's bytes come from: a range of the source, or bytes given literally. */
export type MarkBytes = { readonly start: number; readonly end: number } | { readonly literal: string };

export type Part =
  | { readonly type: 'text'; readonly value: string }
  | { readonly type: 'atom'; readonly bytes: MarkBytes }
  | { readonly type: 'open' | 'close'; readonly bytes: MarkBytes; readonly pair: number };

/**
 * Where a run sits in its translation: first and/or last, and its offset in the
 * translation (an escaper made by `forSegment` may look around the run).
 */
export interface RunPlace {
  readonly first: boolean;
  readonly last: boolean;
  readonly offset?: number;
}

/**
 * Escapes a translated text run for its place in the document. One with `forSegment` is
 * asked, per changed translation of a segment, for the escaper of that translation; its
 * runs then go to that escaper in order. html gives back the source's own whitespace runs
 * and character references, markdown each source escape and line prefix, where the
 * translation lines up with the source text.
 */
export interface Escaper {
  (run: string, at: RunPlace): string;
  forSegment?(segment: SegmentSource, translated: string): Escaper;
}

/** What `Escaper.forSegment` sees of a segment's source. */
export interface SegmentSource {
  readonly source: string;
  /** The segment's range in the source. */
  readonly start: number;
  readonly end: number;
  /** The segment's masked text, as extracted. */
  readonly text: string;
  /** Where one of the segment's tokens (`<x1/>`, `<g2>`, `</g2>`) lies in the source; undefined for literal bytes. */
  tokenStart(token: string): number | undefined;
  tokenEnd(token: string): number | undefined;
  /** The source ranges of its tokens in source order, `[start, end, start, end, …]` (literal tokens left out). */
  markRanges(): readonly number[];
}

export interface SegmentDraft {
  /** The source range the segment replaces (outer whitespace excluded). */
  readonly start: number;
  readonly end: number;
  readonly parts: readonly Part[];
  readonly kind: SegmentKind;
  readonly ctx?: string;
  readonly singleLine?: boolean;
  readonly escape: Escaper;
  /**
   * Move bidi controls at the very edges of a translation inside the edge tokens. In
   * markdown a `_` delimiter next to U+202C is intraword and no longer closes emphasis.
   */
  readonly bidiInside?: boolean;
}

/** A non-segment edit that depends on the target (html lang/dir). */
export interface Patch {
  readonly start: number;
  readonly end: number;
  render(target: RenderTarget): string;
}

let pairCounter = 0;
/** Pair ids only need to be unique within a draft; a process-wide counter is simplest. */
export function newPairId(): number {
  // (as `(pairCounter + 1) % Number.MAX_SAFE_INTEGER`, without a floating-point modulo per pair)
  pairCounter = pairCounter + 1 === Number.MAX_SAFE_INTEGER ? 0 : pairCounter + 1;
  return pairCounter;
}

const LETTER = /\p{L}/u;

/** `/\p{L}/u.test(text)`, deciding ASCII text by char code. */
function hasLetter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= ASCII_END) return LETTER.test(text);
    if ((c | CASE_BIT) >= LOWER_A && (c | CASE_BIT) <= LOWER_Z) return true;
  }
  return false;
}
const MAYBE_TOKEN = /<(?:\/?g|x)\d/;

/** Segment mark kinds of the streaming builder API: an atom `<xN/>`, the open `<gN>` and close `</gN>` of a pair. */
export const ATOM = 0;
export const OPEN = 1;
export const CLOSE = 2;

const atomTokens: string[] = [];
const openTokens: string[] = [];
const closeTokens: string[] = [];
/** Tokens numbered up to this are made once and kept; a segment with more (a hostile one) makes the rest. */
const KEPT_TOKENS = 4096;
const atomToken = (n: number): string => (n < KEPT_TOKENS ? (atomTokens[n] ??= `<x${n}/>`) : `<x${n}/>`);
const openToken = (n: number): string => (n < KEPT_TOKENS ? (openTokens[n] ??= `<g${n}>`) : `<g${n}>`);
const closeToken = (n: number): string => (n < KEPT_TOKENS ? (closeTokens[n] ??= `</g${n}>`) : `</g${n}>`);

/** `array` if it holds `size` entries, else a copy with room for at least that many. */
function room(array: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> {
  if (size <= array.length) return array;
  const grown = new Int32Array(Math.max(size, 2 * array.length));
  grown.set(array);
  return grown;
}

/**
 * Per segment, INFO numbers in a flat Int32Array (no object per segment): its source
 * range, where its tokens start in the token table, how many atoms it has, whether
 * bidi controls move inside (SegmentDraft.bidiInside) and its escaper. The token table holds two
 * numbers per token, source start and end, or -1 and an index into the literals:
 * `<xN/>` is entry `first + N - 1`, `<gN>` is `first + atoms + 2(N - 1)` and `</gN>`
 * the entry after it.
 */
const INFO = 6;
const START = 0;
const END = 1;
const FIRST_MARK = 2;
const ATOMS = 3;
const BIDI = 4;
/** Index into the document's distinct escapers. */
const ESCAPE = 5;

/** What a TemplateDocument takes from its builder. */
interface Built {
  readonly segments: Segment[];
  readonly info: Int32Array;
  /** The distinct escapers, by the index in INFO. */
  readonly escapes: Escaper[];
  readonly tokens: Int32Array;
  readonly literals: string[];
  readonly sorted: boolean;
  /** Sorted and no segment overlaps the next: nothing nests. */
  readonly flat: boolean;
}
let builtOf: (builder: DocumentBuilder) => Built;

/**
 * `s1`, `s2`, … shared by every document: allocated once instead of per segment (and
 * never copied by a young-generation GC). Bounded; longer documents make the rest.
 */
const ids: string[] = [];
const segmentId = (index: number): string => (index < 100_000 ? (ids[index] ??= `s${index + 1}`) : `s${index + 1}`);

/**
 * Builds a document's segments one at a time, without intermediate part objects.
 * `add(draft)` takes a SegmentDraft; adapters that produce their parts in order can
 * instead call `begin`, then `text` / `token` / `literalMark` for each part, then
 * `commit` — pairs given this way must be complete (each open followed by its close).
 * Token numbering, literal token-like text (an atom) and the letter rule are the same
 * either way. `document()` returns the TemplateDocument.
 */
export class DocumentBuilder {
  readonly #segments: Segment[] = [];
  // Sized for a short document (most requests are one sentence) and at most 16 entries
  // each: V8 keeps a typed array of up to 64 bytes on its heap, cheap to make, while a
  // larger one gets a buffer of its own, many times dearer and work for the collector
  // (docs/benchmarks.md, "Figures from code comments"). room() doubles them as needed.
  #info = new Int32Array(INFO * 2);
  readonly #escapes: Escaper[] = [];
  readonly #escapeIndex = new Map<Escaper, number>();
  #lastEscape: Escaper | undefined;
  #lastEscapeIndex = -1;
  #tokens = new Int32Array(16);
  #tokenCount = 0;
  readonly #literals: string[] = [];
  /** Pairs seen while numbering a draft's tokens (reused; only `add` touches them). */
  readonly #opened = new Set<number>();
  readonly #closed = new Set<number>();
  /** Segments arrived in document order (by start, the outer one first) … */
  #sorted = true;
  /** … and none overlaps the one before. */
  #disjoint = true;

  static {
    builtOf = (builder) => ({
      segments: builder.#segments,
      info: builder.#info,
      escapes: builder.#escapes,
      tokens: builder.#tokens,
      literals: builder.#literals,
      sorted: builder.#sorted,
      flat: builder.#sorted && builder.#disjoint,
    });
  }

  // The segment being built.
  #start = 0;
  #end = 0;
  #kind: SegmentKind = 'block';
  #escape: Escaper = (run) => run;
  #ctx: string | undefined;
  #singleLine: boolean | undefined;
  #bidiInside = false;
  #text = '';
  #hasLetter = false;
  #literalsAtBegin = 0;
  /** Its atoms (start, end) and pairs (open start, end, close start, end), and the pair ids. */
  #atoms = new Int32Array(16);
  #atomCount = 0;
  #pairs = new Int32Array(16);
  readonly #pairIds: number[] = [];
  #pairCount = 0;

  constructor(
    readonly format: Format,
    readonly source: string,
  ) {}

  /** Adds a draft; one without a letter outside its tokens is dropped. */
  add(draft: SegmentDraft): void {
    const parts = draft.parts;
    let hasPairs = false;
    for (let i = 0; i < parts.length; i++) {
      const type = parts[i]!.type;
      if (type === 'open' || type === 'close') {
        hasPairs = true;
        break;
      }
    }
    if (hasPairs) {
      // An open without its close (or the reverse) cannot be moved safely: it is an atom.
      this.#opened.clear();
      this.#closed.clear();
      for (const part of parts) {
        if (part.type === 'open') this.#opened.add(part.pair);
        else if (part.type === 'close' && this.#opened.has(part.pair)) this.#closed.add(part.pair);
      }
    }
    this.begin(draft.start, draft.end, draft.kind, draft.escape, draft.ctx, draft.singleLine, draft.bidiInside);
    for (const part of parts) {
      if (part.type === 'text') this.text(part.value);
      else if (part.type === 'atom' || !this.#closed.has(part.pair)) this.#bytes(ATOM, part.bytes, 0);
      else this.#bytes(part.type === 'open' ? OPEN : CLOSE, part.bytes, part.pair);
    }
    if (hasPairs) {
      this.#opened.clear();
      this.#closed.clear();
    }
    this.commit();
  }

  begin(
    start: number,
    end: number,
    kind: SegmentKind,
    escape: Escaper,
    ctx?: string,
    singleLine?: boolean,
    bidiInside?: boolean,
  ): void {
    this.#start = start;
    this.#end = end;
    this.#kind = kind;
    this.#escape = escape;
    this.#ctx = ctx;
    this.#singleLine = singleLine;
    this.#bidiInside = bidiInside ?? false;
    this.#text = '';
    this.#hasLetter = false;
    this.#literalsAtBegin = this.#literals.length;
    this.#givenPlurals = undefined;
    this.#note = undefined;
    this.#atomCount = 0;
    this.#pairCount = 0;
  }

  /** A decoded text run. Literal token-like text in it (an HTML `&lt;g1&gt;`) becomes an atom. */
  text(value: string): void {
    if (value.length > 3 && value.includes('<') && MAYBE_TOKEN.test(value)) this.#textWithTokens(value);
    else this.#plainText(value);
  }

  #plainText(value: string): void {
    this.#text += value;
    if (!this.#hasLetter && hasLetter(value)) this.#hasLetter = true;
  }

  #textWithTokens(value: string): void {
    let last = 0;
    for (const match of value.matchAll(SEGMENT_MARK_PATTERN)) {
      if (match.index > last) this.#plainText(value.slice(last, match.index));
      this.literalMark(ATOM, this.#escape(match[0], { first: false, last: false }), 0);
      last = match.index + match[0].length;
    }
    if (last < value.length) this.#plainText(value.slice(last));
  }

  /** A segment mark whose bytes are `source[start, end)`; `pair` links an OPEN to its CLOSE. */
  mark(kind: number, start: number, end: number, pair: number): void {
    if (kind === ATOM) {
      const k = 2 * this.#atomCount;
      const atoms = (this.#atoms = room(this.#atoms, k + 2));
      atoms[k] = start;
      atoms[k + 1] = end;
      this.#text += atomToken(++this.#atomCount);
    } else if (kind === OPEN) {
      const k = 4 * this.#pairCount;
      const pairs = (this.#pairs = room(this.#pairs, k + 4));
      pairs[k] = start;
      pairs[k + 1] = end;
      pairs[k + 2] = start; // until the close is seen
      pairs[k + 3] = end;
      this.#pairIds[this.#pairCount] = pair;
      this.#text += openToken(++this.#pairCount);
    } else {
      let n = this.#pairCount;
      while (n > 0 && this.#pairIds[n - 1] !== pair) n--;
      if (n === 0) throw new Error(`close of pair ${pair} without its open`);
      this.#pairs[4 * n - 2] = start;
      this.#pairs[4 * n - 1] = end;
      this.#text += closeToken(n);
    }
  }

  /** A segment mark whose bytes are given literally. */
  literalMark(type: number, bytes: string, pair: number): void {
    this.#literals.push(bytes);
    this.mark(type, -1, this.#literals.length - 1, pair);
  }

  #bytes(type: number, bytes: MarkBytes, pair: number): void {
    if ('literal' in bytes) this.literalMark(type, bytes.literal, pair);
    else this.mark(type, bytes.start, bytes.end, pair);
  }

  /**
   * Ends the segment begun last (`end`, when given, replaces the end passed to `begin`);
   * returns false, keeping nothing, when it has no letter.
   */
  commit(end?: number): boolean {
    if (end !== undefined) this.#end = end;
    if (!this.#hasLetter) {
      this.#literals.length = this.#literalsAtBegin;
      return false;
    }
    const start = this.#start;
    end = this.#end;
    const atoms = this.#atomCount;
    const numbers = 2 * atoms + 4 * this.#pairCount;
    const firstMark = this.#tokenCount >> 1;
    if (numbers > 0) {
      const tokens = (this.#tokens = room(this.#tokens, this.#tokenCount + numbers));
      let n = this.#tokenCount;
      const atomNumbers = this.#atoms;
      for (let i = 0; i < 2 * atoms; i++) tokens[n++] = atomNumbers[i]!;
      const pairNumbers = this.#pairs;
      for (let i = 0; i < numbers - 2 * atoms; i++) tokens[n++] = pairNumbers[i]!;
      this.#tokenCount = n;
    }
    const segments = this.#segments;
    const index = segments.length;
    const info = (this.#info = room(this.#info, INFO * (index + 1)));
    if (index > 0) {
      const previousStart = info[INFO * (index - 1) + START]!;
      const previousEnd = info[INFO * (index - 1) + END]!;
      if (previousStart > start || (previousStart === start && previousEnd < end)) this.#sorted = false;
      if (previousEnd > start) this.#disjoint = false;
    }
    const at = INFO * index;
    info[at + START] = start;
    info[at + END] = end;
    info[at + FIRST_MARK] = firstMark;
    info[at + ATOMS] = atoms;
    info[at + BIDI] = this.#bidiInside ? 1 : 0;
    if (this.#escape !== this.#lastEscape) {
      let escapeIndex = this.#escapeIndex.get(this.#escape);
      if (escapeIndex === undefined) {
        escapeIndex = this.#escapes.push(this.#escape) - 1;
        this.#escapeIndex.set(this.#escape, escapeIndex);
      }
      this.#lastEscape = this.#escape;
      this.#lastEscapeIndex = escapeIndex;
    }
    info[at + ESCAPE] = this.#lastEscapeIndex;
    const text = this.#text;
    // Built by concatenation, the text is a tree of string pieces; reading a character
    // makes V8 flatten it in place, so a kept segment holds one string, not the pieces.
    // (Joining an array of the pieces instead allocated less but was no faster here.)
    if (numbers > 0) text.charCodeAt(0);
    // One object literal per shape: properties added later would need a second allocation.
    const id = segmentId(index);
    const kind = this.#kind;
    const ctx = this.#ctx;
    const plurals = this.#pluralsOf(text, numbers);
    const note = this.#note;
    if (plurals !== undefined) {
      segments.push(segmentWithPlurals(id, text, kind, ctx, this.#singleLine === true, plurals));
    } else if (note !== undefined) segments.push({ id, text, kind, note });
    else if (ctx === undefined) segments.push(this.#singleLine ? { id, text, kind, singleLine: true } : { id, text, kind });
    else segments.push(this.#singleLine ? { id, text, kind, ctx, singleLine: true } : { id, text, kind, ctx });
    return true;
  }

  /**
   * A note for the model on the segment being built (a JSON value's key, docs/models.md
   * "Notes from locale files"); only for a segment without `ctx`, `singleLine` or
   * counted messages, which is what the JSON adapter builds.
   */
  note(note: string): void {
    this.#note = note;
  }

  /** Takes back the note of committed segment `index` (a key that turned out to name many values). */
  dropNote(index: number): void {
    const segment = this.#segments[index];
    if (segment?.note !== undefined) this.#segments[index] = { id: segment.id, text: segment.text, kind: segment.kind };
  }
  #note: string | undefined;

  /**
   * Counted messages given for the segment being built (i18next key families, read by
   * the JSON adapter); ICU messages are found by `commit` itself.
   */
  plurals(messages: readonly PluralMessage[]): void {
    this.#givenPlurals = messages;
  }
  #givenPlurals: readonly PluralMessage[] | undefined;

  /** Pairs opened so far in the segment being built: the next `<gN>` is `<g(pairCount + 1)>`. */
  get pairCount(): number {
    return this.#pairCount;
  }

  /** The segment's counted messages: the ones given, then ICU messages read from its marks' bytes. */
  #pluralsOf(text: string, numbers: number): readonly PluralMessage[] | undefined {
    const given = this.#givenPlurals;
    this.#givenPlurals = undefined;
    // An ICU message masks as a header atom directly followed by a branch pair.
    const icu = numbers > 0 && text.includes('/><g') ? findIcuPlurals(text, (mark) => this.#markBytes(mark)) : undefined;
    if (given === undefined) return icu;
    return icu === undefined ? given : [...given, ...icu];
  }

  /** The bytes of a mark of the segment being built. */
  #markBytes(mark: string): string {
    let start: number;
    let end: number;
    if (mark.charCodeAt(1) === LOWER_X) {
      const k = 2 * (tokenNumber(mark, 2) - 1);
      start = this.#atoms[k]!;
      end = this.#atoms[k + 1]!;
    } else {
      const closing = mark.charCodeAt(1) === SLASH;
      const k = 4 * (tokenNumber(mark, closing ? 3 : 2) - 1) + (closing ? 2 : 0);
      start = this.#pairs[k]!;
      end = this.#pairs[k + 1]!;
    }
    return start < 0 ? this.#literals[end]! : this.source.slice(start, end);
  }

  /** Segments committed so far. */
  get segmentCount(): number {
    return this.#segments.length;
  }

  document(patches: readonly Patch[] = []): TemplateDocument {
    return new TemplateDocument(this.format, this.source, this, patches);
  }
}

/** A segment with counted messages (rare: its own shape, made apart from `commit`'s literals). */
function segmentWithPlurals(id: string, text: string, kind: SegmentKind, ctx: string | undefined, singleLine: boolean, plurals: readonly PluralMessage[]): Segment {
  const segment: { id: string; text: string; kind: SegmentKind; ctx?: string; singleLine?: boolean; plurals: readonly PluralMessage[] } = { id, text, kind, plurals };
  if (ctx !== undefined) segment.ctx = ctx;
  if (singleLine) segment.singleLine = true;
  return segment;
}

const BIDI_RUN_START = /^[\u200e\u200f\u202a-\u202e\u2066-\u2069]+/;
const BIDI_RUN_END = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]+$/;
const WORD = /[\p{L}\p{N}]/u;
const WORD_END = /[\p{L}\p{N}][\p{M}]*(?![\s\S]*[\p{L}\p{N}])/u;

/** An HTML start or end tag's first bytes (`<b>`, `</a>`, `<img `): not an autolink's `<https:`. */
const HTML_TAG_START = /^<\/?[A-Za-z][A-Za-z0-9-]*(?:[\s/>]|$)/;

/**
 * Moves bidi controls at the edges of a translation next to its first and last word.
 * A mark is neither whitespace nor punctuation to a markdown reader: glued to a
 * delimiter it changes whether `_`/`**` can open or close, and glued to a URL it becomes
 * part of a GFM autolink. Next to a letter it behaves like one more letter. An HTML tag
 * (`isTag`) at the very edge is neither, so a mark stops before it, where the html
 * adapter puts it (`<b>Note:</b> text` is wrapped outside the `<b>`, in a paragraph as
 * in an HTML block).
 */
function bidiInside(text: string, isTag: (token: string) => boolean): string {
  const pieces = text.split(/(<\/?g\d+>|<x\d+\/>)/);
  const lead = BIDI_RUN_START.exec(pieces[0]!)?.[0];
  if (lead) {
    pieces[0] = pieces[0]!.slice(lead.length);
    const at = bidiStop(pieces, 0, 1, isTag);
    if (at === -1) pieces[0] = lead + pieces[0];
    else if (at % 2 === 1) pieces[at - 1] += lead;
    else pieces[at] = pieces[at]!.replace(WORD, (c) => lead + c);
  }
  const lastIndex = pieces.length - 1;
  const trail = BIDI_RUN_END.exec(pieces[lastIndex]!)?.[0];
  if (trail) {
    pieces[lastIndex] = pieces[lastIndex]!.slice(0, -trail.length);
    const at = bidiStop(pieces, lastIndex, -1, isTag);
    if (at === -1) pieces[lastIndex] += trail;
    else if (at % 2 === 1) pieces[at + 1] = trail + pieces[at + 1]!;
    else pieces[at] = pieces[at]!.replace(WORD_END, (c) => c + trail);
  }
  return pieces.join('');
}

/**
 * Where a bidi run moved in from the edge at `from` stops, reading by `step`: the first
 * word character's piece, or a tag's; -1 for neither. A tag is a stop only with no
 * character before it: a punctuation mark beside the mark would be read next to a
 * letter-like character and escaped where it was not.
 */
function bidiStop(pieces: readonly string[], from: number, step: 1 | -1, isTag: (token: string) => boolean): number {
  let bare = true;
  for (let i = from; i >= 0 && i < pieces.length; i += step) {
    if (i % 2 === 1 ? bare && isTag(pieces[i]!) : WORD.test(pieces[i]!)) return i;
    if (i % 2 === 0 && pieces[i] !== '') bare = false;
  }
  return -1;
}

const MARK_SCAN = new RegExp(SEGMENT_MARK_PATTERN.source, 'g');

/** Translations by segment index. */
type Aligned = readonly (string | undefined)[];

/** N-1 for a string `sN` (decimal digits), else -1. */
function idIndex(id: string): number {
  if (id.charCodeAt(0) !== LOWER_S || id.length < 2 || id.length > 10) return -1;
  let n = 0;
  for (let i = 1; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c < DIGIT_0 || c > DIGIT_9) return -1;
    n = 10 * n + c - 48;
  }
  return n - 1;
}

/** The number in a token (`<x12/>`, `<g3>`, `</g3>`) whose digits start at `from`. */
function tokenNumber(token: string, from: number): number {
  let n = 0;
  for (let i = from, c = token.charCodeAt(i); c >= DIGIT_0 && c <= DIGIT_9; c = token.charCodeAt(++i)) n = 10 * n + c - 48;
  return n;
}

/** The token table entry of `token` (`<x3/>`, `<g2>`, `</g2>`) in a segment whose tokens start at `firstMark`. */
function tokenEntry(token: string, firstMark: number, atoms: number): number {
  if (token.charCodeAt(1) === LOWER_X) return firstMark + tokenNumber(token, 2) - 1;
  if (token.charCodeAt(1) === SLASH) return firstMark + atoms + 2 * (tokenNumber(token, 3) - 1) + 1;
  return firstMark + atoms + 2 * (tokenNumber(token, 2) - 1);
}

export class TemplateDocument implements ExtractedDocument {
  readonly segments: readonly Segment[];
  readonly #info: Int32Array;
  readonly #escapes: readonly Escaper[];
  readonly #tokens: Int32Array;
  readonly #literals: readonly string[];
  readonly #patches: readonly Patch[];
  /**
   * The edits (segments, then patches) as a tree: an edit inside another's range is its
   * child, rendered within it (an image's alt inside the image token). Null when no
   * edit nests and there are no patches: every segment is a root, in order.
   */
  readonly #tree: EditTree | null;
  /** Render state: the output so far and a pending source range not yet copied into it. */
  #out: string[] = [];
  #copyFrom = 0;
  #copyTo = 0;

  constructor(
    readonly format: Format,
    private readonly source: string,
    drafts: readonly SegmentDraft[] | DocumentBuilder,
    patches: readonly Patch[] = [],
  ) {
    let builder: DocumentBuilder;
    if (drafts instanceof DocumentBuilder) builder = drafts;
    else {
      builder = new DocumentBuilder(format, source);
      for (const draft of drafts) builder.add(draft);
    }
    const built = builtOf(builder);
    let { segments, info } = built;
    const count = segments.length;
    if (!built.sorted) {
      // Document order (stable): by start, the outer segment first.
      const order = Array.from({ length: count }, (_, i) => i);
      order.sort((a, b) => info[INFO * a + START]! - info[INFO * b + START]! || info[INFO * b + END]! - info[INFO * a + END]!);
      const sortedInfo = new Int32Array(INFO * count);
      const sortedSegments: Segment[] = new Array(count);
      for (let index = 0; index < count; index++) {
        const from = order[index]!;
        sortedInfo.set(info.subarray(INFO * from, INFO * from + INFO), INFO * index);
        const segment = segments[from]!;
        (segment as { id: string }).id = segmentId(index);
        sortedSegments[index] = segment;
      }
      info = sortedInfo;
      segments = sortedSegments;
    }
    this.segments = segments;
    this.#info = info;
    this.#escapes = built.escapes;
    this.#tokens = built.tokens;
    this.#literals = built.literals;
    this.#patches = patches;
    this.#tree = patches.length === 0 && built.flat ? null : nest(info, count, patches);
  }

  render(given: Translations, target: RenderTarget): string {
    const translations = Array.isArray(given) ? (given as Aligned) : this.#align(given as ReadonlyMap<string, string>);
    this.#out = [];
    this.#copyFrom = this.#copyTo = 0;
    const tree = this.#tree;
    if (tree) this.#renderRange(0, this.source.length, tree.root, translations, target);
    else {
      // Nothing nests: the segments in order, each with the source before it.
      const info = this.#info;
      let cursor = 0;
      for (let index = 0; index < this.segments.length; index++) {
        const start = info[INFO * index + START]!;
        if (start > cursor) this.#copy(cursor, start);
        this.#renderSegment(index, translations, target);
        cursor = info[INFO * index + END]!;
      }
      if (cursor < this.source.length) this.#copy(cursor, this.source.length);
    }
    this.#flush();
    const out = this.#out;
    this.#out = [];
    return out.length === 1 ? out[0]! : out.join('');
  }

  /**
   * The translation of each segment by index. A Map is read in one pass in its own order
   * (a key `sN` is segment N-1's id): 30k lookups by id cost several ms per render, in
   * cache misses more than hashing.
   */
  #align(translations: ReadonlyMap<string, string>): Aligned {
    const segments = this.segments;
    const aligned: (string | undefined)[] = new Array(segments.length);
    if (translations instanceof Map) {
      translations.forEach((value: string, key: string) => {
        const index = idIndex(key);
        if (index >= 0 && index < segments.length && segments[index]!.id === key) aligned[index] = value;
      });
    } else for (let index = 0; index < segments.length; index++) aligned[index] = translations.get(segments[index]!.id);
    return aligned;
  }

  /** Source bytes `[start, end)` go to the output (joined with an adjacent pending range). */
  #copy(start: number, end: number): void {
    if (start === this.#copyTo) this.#copyTo = end;
    else {
      this.#flush();
      this.#copyFrom = start;
      this.#copyTo = end;
    }
  }

  #flush(): void {
    if (this.#copyTo > this.#copyFrom) this.#out.push(this.source.slice(this.#copyFrom, this.#copyTo));
    this.#copyFrom = this.#copyTo;
  }

  #emit(text: string): void {
    this.#flush();
    this.#out.push(text);
  }

  /**
   * `[start, end)` of the source with the children of `parent` (an edit, or the root) that
   * lie inside it. Children are in document order and do not overlap, so the first one
   * inside is found by binary search: a segment with tens of thousands of nested edits
   * (a `dir` patch or a `title` in every inline tag) renders each token in log time,
   * not by walking every child (which made a 1.8 MB page of `<b>Hi</b> ` take minutes).
   */
  #renderRange(start: number, end: number, parent: number, translations: Aligned, target: RenderTarget): void {
    const { starts, ends, children, childFrom } = this.#tree!;
    let low = childFrom[parent]!;
    let high = childFrom[parent + 1]!;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (starts[children[middle]!]! < start) low = middle + 1;
      else high = middle;
    }
    let cursor = start;
    for (let k = low; k < childFrom[parent + 1]!; k++) {
      const edit = children[k]!;
      const editStart = starts[edit]!;
      if (editStart > end) break;
      const editEnd = ends[edit]!;
      if (editEnd > end) continue;
      if (editStart > cursor) this.#copy(cursor, editStart);
      if (edit >= this.segments.length) this.#emit(this.#patches[edit - this.segments.length]!.render(target));
      else this.#renderSegment(edit, translations, target);
      cursor = editEnd;
    }
    if (cursor < end) this.#copy(cursor, end);
  }

  /** `[start, end)` with the children of segment `index` (its nested segments) rendered in it. */
  #renderInside(index: number, start: number, end: number, translations: Aligned, target: RenderTarget): void {
    const tree = this.#tree;
    if (tree && tree.childFrom[index + 1]! > tree.childFrom[index]!) this.#renderRange(start, end, index, translations, target);
    else if (end > start) this.#copy(start, end);
  }

  #renderSegment(index: number, translations: Aligned, target: RenderTarget): void {
    const segment = this.segments[index]!;
    const at = INFO * index;
    const info = this.#info;
    let translated = translations[index];
    // The source text (or no translation) renders the original bytes, which is what
    // makes identity renders byte-exact whatever the escaping of the source was.
    if (translated === undefined || translated === segment.text) {
      this.#renderInside(index, info[at + START]!, info[at + END]!, translations, target);
      return;
    }
    // A segment with counted messages is translated in the target's plural shape
    // (translation/ asks for it and checks it); one in the source's shape still renders.
    const shape = segment.plurals === undefined ? undefined : shapePlurals(segment, target.code);
    if (shape !== undefined && segment.plurals!.some((message) => message.style === 'i18next')) translated = insideBranchesOnly(translated);
    let problem = markProblem(shape?.text ?? segment.text, translated);
    if (problem !== null && shape?.changed === true && markProblem(segment.text, translated) === null) problem = null;
    else if (problem === null && shape !== undefined && shape.aliases.size > 0) {
      this.#renderShaped(index, translated, shape, translations, target);
      return;
    }
    if (problem) {
      throw new ServiceError('translation_error', `The translation of segment ${segment.id} is unusable: ${problem}.`);
    }
    const firstMark = info[at + FIRST_MARK]!;
    const atoms = info[at + ATOMS]!;
    const tokens = this.#tokens;
    if (info[at + BIDI]) translated = bidiInside(translated, (token) => this.#isHtmlTag(token, firstMark, atoms));
    const escape = this.#escaperFor(index, translated);
    let last = 0;
    let first = true;
    const re = MARK_SCAN;
    re.lastIndex = 0;
    for (let match = re.exec(translated); match; match = re.exec(translated)) {
      const matchAt = match.index;
      const token = match[0];
      const next = matchAt + token.length;
      if (matchAt > last) this.#emit(escape(translated.slice(last, matchAt), { first, last: false, offset: last }));
      first = false;
      const k = tokenEntry(token, firstMark, atoms);
      const bytesStart = tokens[2 * k]!;
      const bytesEnd = tokens[2 * k + 1]!;
      if (bytesStart < 0) this.#emit(this.#literals[bytesEnd]!);
      else {
        this.#renderInside(index, bytesStart, bytesEnd, translations, target);
        re.lastIndex = next; // a nested segment used the same pattern
      }
      last = next;
    }
    if (last < translated.length) this.#emit(escape(translated.slice(last), { first, last: true, offset: last }));
  }

  /**
   * The escaper of segment `index` for one changed translation: its own, or the one its
   * `forSegment` makes for it. `aliases`: a plural shape's marks, read as the source marks
   * they copy (one with literal bytes has none in the source).
   */
  #escaperFor(index: number, translated: string, aliases?: ReadonlyMap<string, MarkAlias>): Escaper {
    const at = INFO * index;
    const info = this.#info;
    const escape = this.#escapes[info[at + ESCAPE]!]!;
    if (!escape.forSegment) return escape;
    const firstMark = info[at + FIRST_MARK]!;
    const atoms = info[at + ATOMS]!;
    const tokens = this.#tokens;
    const text = this.segments[index]!.text;
    /** Where a token's bytes start (`side` 0) or end (1) in the source. */
    const bytesAt = (token: string, side: number): number | undefined => {
      const alias = aliases?.get(token);
      if (alias?.literal !== undefined) return undefined;
      const k = tokenEntry(alias?.mark ?? token, firstMark, atoms);
      return tokens[2 * k]! < 0 ? undefined : tokens[2 * k + side];
    };
    let ranges: readonly number[] | undefined;
    return escape.forSegment(
      {
        source: this.source,
        start: info[at + START]!,
        end: info[at + END]!,
        text,
        tokenStart: (token) => bytesAt(token, 0),
        tokenEnd: (token) => bytesAt(token, 1),
        markRanges: () => (ranges ??= markRanges(text, tokens, firstMark, atoms)),
      },
      translated,
    );
  }

  /** Whether a segment's mark stands for an HTML tag in the source (a stop for the bidi wrap). */
  #isHtmlTag(token: string, firstMark: number, atoms: number): boolean {
    const entry = tokenEntry(token, firstMark, atoms);
    const start = this.#tokens[2 * entry]!;
    return start >= 0 && HTML_TAG_START.test(this.source.slice(start, Math.min(this.#tokens[2 * entry + 1]!, start + 40)));
  }

  /**
   * `#renderSegment` for a translation in a plural shape with marks of its own (a new
   * branch, a copy of `other`'s marks): each such mark is written with the bytes of the
   * source mark it stands for (plural-shape.ts).
   */
  #renderShaped(index: number, translated: string, shape: PluralShape, translations: Aligned, target: RenderTarget): void {
    const at = INFO * index;
    const info = this.#info;
    const firstMark = info[at + FIRST_MARK]!;
    const atoms = info[at + ATOMS]!;
    const tokens = this.#tokens;
    const aliases = shape.aliases;
    const sourceMark = (token: string): string => aliases.get(token)?.mark ?? token;
    if (info[at + BIDI]) translated = bidiInside(translated, (token) => this.#isHtmlTag(sourceMark(token), firstMark, atoms));
    const escape = this.#escaperFor(index, translated, aliases);
    let last = 0;
    let first = true;
    const re = new RegExp(SEGMENT_MARK_PATTERN.source, 'g');
    for (let match = re.exec(translated); match; match = re.exec(translated)) {
      const matchAt = match.index;
      const next = matchAt + match[0].length;
      if (matchAt > last) this.#emit(escape(translated.slice(last, matchAt), { first, last: false, offset: last }));
      first = false;
      const alias: MarkAlias | undefined = aliases.get(match[0]);
      if (alias?.literal !== undefined) this.#emit(alias.literal);
      else {
        const k = tokenEntry(alias?.mark ?? match[0], firstMark, atoms);
        const bytesStart = tokens[2 * k]!;
        const bytesEnd = tokens[2 * k + 1]!;
        if (alias?.selector !== undefined) {
          const bytes = bytesStart < 0 ? this.#literals[bytesEnd]! : this.source.slice(bytesStart, bytesEnd);
          this.#emit(renameSelector(bytes, alias.selector, alias.style ?? 'icu'));
        } else if (bytesStart < 0) this.#emit(this.#literals[bytesEnd]!);
        else this.#renderInside(index, bytesStart, bytesEnd, translations, target);
      }
      last = next;
    }
    if (last < translated.length) this.#emit(escape(translated.slice(last), { first, last: true, offset: last }));
  }
}

const MARK_RANGES_SCAN = new RegExp(SEGMENT_MARK_PATTERN.source, 'g');

/** The source ranges of a segment's tokens (SegmentSource.markRanges), from its masked text and the token table. */
function markRanges(text: string, tokens: Int32Array, firstMark: number, atoms: number): number[] {
  const ranges: number[] = [];
  if (!text.includes('<')) return ranges;
  const re = MARK_RANGES_SCAN;
  re.lastIndex = 0;
  let sorted = true;
  for (let match = re.exec(text); match; match = re.exec(text)) {
    const k = tokenEntry(match[0], firstMark, atoms);
    if (tokens[2 * k]! < 0) continue;
    if (ranges.length > 0 && tokens[2 * k]! < ranges[ranges.length - 2]!) sorted = false;
    ranges.push(tokens[2 * k]!, tokens[2 * k + 1]!);
  }
  if (sorted) return ranges;
  // In the text's order, which is the source's but for pairs made of tokens out of order.
  const order = Array.from({ length: ranges.length / 2 }, (_, i) => i).sort((a, b) => ranges[2 * a]! - ranges[2 * b]!);
  return order.flatMap((i) => [ranges[2 * i]!, ranges[2 * i + 1]!]);
}

/**
 * The edits nested by range. Edit `e`'s children are `children[childFrom[e] …
 * childFrom[e + 1])`, in document order; the root's are at `root` (the edit count).
 */
interface EditTree {
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  readonly children: Int32Array;
  readonly childFrom: Int32Array;
  readonly root: number;
}

/**
 * Nests edits by range: segments `0 … count-1` (in document order) and then the patches.
 * An edit that straddles another's boundary is dropped, never mangled.
 */
function nest(info: Int32Array, count: number, patches: readonly Patch[]): EditTree {
  const total = count + patches.length;
  const starts = new Int32Array(total);
  const ends = new Int32Array(total);
  for (let index = 0; index < count; index++) {
    starts[index] = info[INFO * index + START]!;
    ends[index] = info[INFO * index + END]!;
  }
  for (let p = 0; p < patches.length; p++) {
    starts[count + p] = patches[p]!.start;
    ends[count + p] = patches[p]!.end;
  }
  const before = (a: number, b: number): number => starts[a]! - starts[b]! || ends[b]! - ends[a]!;
  // All edits in document order (stable: a segment before a patch with the same range).
  const patchOrder = Array.from({ length: patches.length }, (_, p) => count + p).sort(before);
  const order = new Int32Array(total);
  for (let s = 0, p = 0, o = 0; o < total; o++) {
    order[o] = p < patchOrder.length && (s >= count || before(patchOrder[p]!, s) < 0) ? patchOrder[p++]! : s++;
  }
  const ROOT = total;
  const DROPPED = -1;
  const parents = new Int32Array(total).fill(DROPPED);
  const childFrom = new Int32Array(total + 2);
  const stack: number[] = [];
  for (let o = 0; o < total; o++) {
    const edit = order[o]!;
    while (stack.length > 0 && ends[stack[stack.length - 1]!]! <= starts[edit]!) stack.pop();
    const parent = stack.length > 0 ? stack[stack.length - 1]! : ROOT;
    if (parent !== ROOT && ends[edit]! > ends[parent]!) continue;
    parents[edit] = parent;
    childFrom[parent + 1] = childFrom[parent + 1]! + 1;
    stack.push(edit);
  }
  // Children grouped by parent (a counting sort that keeps document order).
  for (let e = 0; e <= total; e++) childFrom[e + 1] = childFrom[e + 1]! + childFrom[e]!;
  const fill = childFrom.slice(0, total + 1);
  const children = new Int32Array(childFrom[total + 1]!);
  for (let o = 0; o < total; o++) {
    const edit = order[o]!;
    const parent = parents[edit]!;
    if (parent === DROPPED) continue;
    children[fill[parent]!] = edit;
    fill[parent] = fill[parent]! + 1;
  }
  return { starts, ends, children, childFrom, root: ROOT };
}
