/**
 * The shared core of every adapter: an adapter describes each segment as a source range
 * plus a list of parts (text runs and tokens whose bytes are source ranges or literal
 * bytes); this module numbers the tokens, builds the masked text, and renders by
 * splicing translations into the untouched source. Because every token is a source
 * range, a segment nested inside another's token (an image's alt inside the image
 * token) is spliced by the same recursion, and everything outside segments is copied.
 */
import { ServiceError } from '../errors.js';
import type { ExtractedDocument, Format, RenderTarget } from './format.js';
import { TOKEN_PATTERN, tokenProblem } from './segment.js';
import type { Segment, SegmentKind } from './segment.js';

/** Where a token's bytes come from: a range of the source, or bytes given literally. */
export type TokenBytes = { readonly start: number; readonly end: number } | { readonly literal: string };

export type Part =
  | { readonly type: 'text'; readonly value: string }
  | { readonly type: 'atom'; readonly bytes: TokenBytes }
  | { readonly type: 'open' | 'close'; readonly bytes: TokenBytes; readonly pair: number };

/** Escapes a translated text run for its place in the document. */
export type Escaper = (run: string, at: { readonly first: boolean; readonly last: boolean }) => string;

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
  pairCounter = (pairCounter + 1) % Number.MAX_SAFE_INTEGER;
  return pairCounter;
}

const LETTER = /\p{L}/u;
const MAYBE_TOKEN = /<(?:\/?g|x)\d/;

/** Token kinds of the streaming builder API. */
export const ATOM = 0;
export const OPEN = 1;
export const CLOSE = 2;

const atomTokens: string[] = [];
const openTokens: string[] = [];
const closeTokens: string[] = [];
const atomToken = (n: number): string => (atomTokens[n] ??= `<x${n}/>`);
const openToken = (n: number): string => (openTokens[n] ??= `<g${n}>`);
const closeToken = (n: number): string => (closeTokens[n] ??= `</g${n}>`);

/**
 * A segment ready to render. Its token bytes live in the document's token table, two
 * numbers per token (source start, end; or -1 and an index into the literals):
 * `<xN/>` is entry `firstToken + N - 1`, `<gN>` is `firstToken + atoms + 2(N - 1)` and
 * `</gN>` the entry after it.
 */
interface BuiltSegment {
  readonly kind: 'segment';
  readonly start: number;
  readonly end: number;
  segment: Segment;
  readonly firstToken: number;
  readonly atoms: number;
  readonly escape: Escaper;
  readonly bidiInside: boolean;
  children: Edit[];
}

interface PatchEdit {
  readonly kind: 'patch';
  readonly start: number;
  readonly end: number;
  readonly patch: Patch;
  children: Edit[];
}

type Edit = BuiltSegment | PatchEdit;

/** Shared by every edit without children (never written: `nest` gives a parent its own array). */
const NO_CHILDREN: Edit[] = [];

/** What a TemplateDocument takes from its builder. */
interface Built {
  readonly built: BuiltSegment[];
  readonly tokens: number[];
  readonly literals: string[];
  readonly sorted: boolean;
  /** Sorted and no segment overlaps another: every segment is a root edit. */
  readonly flat: boolean;
}
let builtOf: (builder: DocumentBuilder) => Built;

/** Pairs seen while numbering a draft's tokens (reused; only `add` touches them). */
const opened = new Set<number>();
const closed = new Set<number>();

/**
 * Builds a document's segments one at a time, without intermediate part objects.
 * `add(draft)` takes a SegmentDraft; adapters that produce their parts in order can
 * instead call `begin`, then `text` / `token` / `literalToken` for each part, then
 * `commit` — pairs given this way must be complete (each open followed by its close).
 * Token numbering, literal token-like text (an atom) and the letter rule are the same
 * either way. `document()` returns the TemplateDocument.
 */
export class DocumentBuilder {
  readonly #built: BuiltSegment[] = [];
  /** The token table: two numbers per token (see BuiltSegment). */
  readonly #tokens: number[] = [];
  readonly #literals: string[] = [];
  /** Segments arrived in document order (by start, the outer one first) … */
  #sorted = true;
  /** … and none overlaps the one before. */
  #disjoint = true;

  static {
    builtOf = (builder) => ({
      built: builder.#built,
      tokens: builder.#tokens,
      literals: builder.#literals,
      sorted: builder.#sorted,
      flat: builder.#sorted && builder.#disjoint,
    });
  }

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
  /** The current segment's atoms (2 numbers each) and pairs (open, close: 4 numbers each); reused. */
  readonly #atoms: number[] = [];
  #atomCount = 0;
  readonly #pairs: number[] = [];
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
      opened.clear();
      closed.clear();
      for (const part of parts) {
        if (part.type === 'open') opened.add(part.pair);
        else if (part.type === 'close' && opened.has(part.pair)) closed.add(part.pair);
      }
    }
    this.begin(draft.start, draft.end, draft.kind, draft.escape, draft.ctx, draft.singleLine, draft.bidiInside);
    for (const part of parts) {
      if (part.type === 'text') this.text(part.value);
      else if (part.type === 'atom' || !closed.has(part.pair)) this.#bytes(ATOM, part.bytes, 0);
      else this.#bytes(part.type === 'open' ? OPEN : CLOSE, part.bytes, part.pair);
    }
    if (hasPairs) {
      opened.clear();
      closed.clear();
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
    this.#atomCount = 0;
    this.#pairCount = 0;
  }

  /** A decoded text run. Literal token-like text in it (an HTML `&lt;g1&gt;`) becomes an atom. */
  text(value: string): void {
    if (value.length > 3 && MAYBE_TOKEN.test(value)) this.#textWithTokens(value);
    else this.#plainText(value);
  }

  #plainText(value: string): void {
    this.#text += value;
    if (!this.#hasLetter && LETTER.test(value)) this.#hasLetter = true;
  }

  #textWithTokens(value: string): void {
    let last = 0;
    for (const match of value.matchAll(TOKEN_PATTERN)) {
      if (match.index > last) this.#plainText(value.slice(last, match.index));
      this.literalToken(ATOM, this.#escape(match[0], { first: false, last: false }), 0);
      last = match.index + match[0].length;
    }
    if (last < value.length) this.#plainText(value.slice(last));
  }

  /** A token whose bytes are `source[start, end)`; `pair` links an OPEN to its CLOSE. */
  token(type: number, start: number, end: number, pair: number): void {
    if (type === ATOM) {
      const k = 2 * this.#atomCount;
      this.#atoms[k] = start;
      this.#atoms[k + 1] = end;
      this.#text += atomToken(++this.#atomCount);
    } else if (type === OPEN) {
      const k = 4 * this.#pairCount;
      const pairs = this.#pairs;
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

  /** A token whose bytes are given literally. */
  literalToken(type: number, bytes: string, pair: number): void {
    this.#literals.push(bytes);
    this.token(type, -1, this.#literals.length - 1, pair);
  }

  #bytes(type: number, bytes: TokenBytes, pair: number): void {
    if ('literal' in bytes) this.literalToken(type, bytes.literal, pair);
    else this.token(type, bytes.start, bytes.end, pair);
  }

  /**
   * Ends the segment begun last (`end`, when given, replaces the end passed to `begin`);
   * returns false, keeping nothing, when it has no letter.
   */
  commit(end?: number): boolean {
    if (end !== undefined) this.#end = end;
    const atoms = this.#atomCount;
    const pairs = this.#pairCount;
    if (!this.#hasLetter) {
      this.#literals.length = this.#literalsAtBegin;
      return false;
    }
    const tokens = this.#tokens;
    const firstToken = tokens.length >> 1;
    for (let i = 0; i < 2 * atoms; i++) tokens.push(this.#atoms[i]!);
    for (let i = 0; i < 4 * pairs; i++) tokens.push(this.#pairs[i]!);
    const start = this.#start;
    end = this.#end;
    const built = this.#built;
    const previous = built[built.length - 1];
    if (previous) {
      if (previous.start > start || (previous.start === start && previous.end < end)) this.#sorted = false;
      if (previous.end > start) this.#disjoint = false;
    }
    const segment: { id: string; text: string; kind: SegmentKind; ctx?: string; singleLine?: boolean } = {
      id: `s${built.length + 1}`,
      text: this.#text,
      kind: this.#kind,
    };
    if (this.#ctx !== undefined) segment.ctx = this.#ctx;
    if (this.#singleLine) segment.singleLine = true;
    built.push({
      kind: 'segment',
      start,
      end,
      segment,
      firstToken,
      atoms,
      escape: this.#escape,
      bidiInside: this.#bidiInside,
      children: NO_CHILDREN,
    });
    return true;
  }

  document(patches: readonly Patch[] = []): TemplateDocument {
    return new TemplateDocument(this.format, this.source, this, patches);
  }
}

const BIDI_RUN_START = /^[\u200e\u200f\u202a-\u202e\u2066-\u2069]+/;
const BIDI_RUN_END = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]+$/;
const WORD = /[\p{L}\p{N}]/u;
const WORD_END = /[\p{L}\p{N}][\p{M}]*(?![\s\S]*[\p{L}\p{N}])/u;

/**
 * Moves bidi controls at the edges of a translation next to its first and last word.
 * A mark is neither whitespace nor punctuation to a markdown reader: glued to a
 * delimiter it changes whether `_`/`**` can open or close, and glued to a URL it becomes
 * part of a GFM autolink. Next to a letter it behaves like one more letter.
 */
function bidiInside(text: string): string {
  const pieces = text.split(/(<\/?g\d+>|<x\d+\/>)/);
  const lead = BIDI_RUN_START.exec(pieces[0]!)?.[0];
  if (lead) {
    pieces[0] = pieces[0]!.slice(lead.length);
    const at = pieces.findIndex((piece, i) => i % 2 === 0 && WORD.test(piece));
    if (at === -1) pieces[0] = lead + pieces[0];
    else pieces[at] = pieces[at]!.replace(WORD, (c) => lead + c);
  }
  const lastIndex = pieces.length - 1;
  const trail = BIDI_RUN_END.exec(pieces[lastIndex]!)?.[0];
  if (trail) {
    pieces[lastIndex] = pieces[lastIndex]!.slice(0, -trail.length);
    let at = -1;
    for (let i = lastIndex; i >= 0; i -= 2) if (WORD.test(pieces[i]!)) {
      at = i;
      break;
    }
    if (at === -1) pieces[lastIndex] += trail;
    else pieces[at] = pieces[at]!.replace(WORD_END, (c) => c + trail);
  }
  return pieces.join('');
}

/** Nests edits by range; an edit that straddles another's boundary is dropped, never mangled. */
function nest(edits: Edit[]): Edit[] {
  edits.sort((a, b) => a.start - b.start || b.end - a.end);
  const roots: Edit[] = [];
  const stack: Edit[] = [];
  for (const edit of edits) {
    while (stack.length > 0 && stack[stack.length - 1]!.end <= edit.start) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent && edit.end > parent.end) continue;
    if (!parent) roots.push(edit);
    else if (parent.children === NO_CHILDREN) parent.children = [edit];
    else parent.children.push(edit);
    stack.push(edit);
  }
  return roots;
}

const TOKEN_SCAN = new RegExp(TOKEN_PATTERN.source, 'g');

export class TemplateDocument implements ExtractedDocument {
  readonly segments: readonly Segment[];
  readonly #roots: Edit[];
  readonly #tokens: number[];
  readonly #literals: string[];
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
    const { built, tokens, literals, sorted, flat } = builtOf(builder);
    if (!sorted) {
      built.sort((a, b) => a.start - b.start || b.end - a.end);
      for (let index = 0; index < built.length; index++) (built[index]!.segment as { id: string }).id = `s${index + 1}`;
    }
    const segments: Segment[] = new Array(built.length);
    for (let index = 0; index < built.length; index++) segments[index] = built[index]!.segment;
    this.segments = segments;
    this.#tokens = tokens;
    this.#literals = literals;
    if (patches.length === 0 && flat) this.#roots = built;
    else {
      const edits: Edit[] = built.slice();
      for (const patch of patches) edits.push({ kind: 'patch', start: patch.start, end: patch.end, patch, children: NO_CHILDREN });
      this.#roots = nest(edits);
    }
  }

  render(translations: ReadonlyMap<string, string>, target: RenderTarget): string {
    this.#out = [];
    this.#copyFrom = this.#copyTo = 0;
    this.#renderRange(0, this.source.length, this.#roots, translations, target);
    this.#flush();
    const out = this.#out;
    this.#out = [];
    return out.length === 1 ? out[0]! : out.join('');
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

  #renderRange(
    start: number,
    end: number,
    edits: readonly Edit[],
    translations: ReadonlyMap<string, string>,
    target: RenderTarget,
  ): void {
    let cursor = start;
    for (let i = 0; i < edits.length; i++) {
      const edit = edits[i]!;
      if (edit.start < start || edit.end > end) continue;
      if (edit.start > cursor) this.#copy(cursor, edit.start);
      if (edit.kind === 'patch') this.#emit(edit.patch.render(target));
      else this.#renderSegment(edit, translations, target);
      cursor = edit.end;
    }
    if (cursor < end) this.#copy(cursor, end);
  }

  #renderSegment(edit: BuiltSegment, translations: ReadonlyMap<string, string>, target: RenderTarget): void {
    const { segment } = edit;
    let translated = translations.get(segment.id);
    // The source text (or no translation) renders the original bytes, which is what
    // makes identity renders byte-exact whatever the escaping of the source was.
    if (translated === undefined || translated === segment.text) {
      if (edit.children === NO_CHILDREN) {
        if (edit.end > edit.start) this.#copy(edit.start, edit.end);
      } else this.#renderRange(edit.start, edit.end, edit.children, translations, target);
      return;
    }
    const problem = tokenProblem(segment.text, translated);
    if (problem) {
      throw new ServiceError('translation_error', `The translation of segment ${segment.id} is unusable: ${problem}.`);
    }
    if (edit.bidiInside) translated = bidiInside(translated);
    let last = 0;
    let first = true;
    const tokens = this.#tokens;
    const re = TOKEN_SCAN;
    re.lastIndex = 0;
    for (let match = re.exec(translated); match; match = re.exec(translated)) {
      const index = match.index;
      const token = match[0];
      const next = index + token.length;
      if (index > last) this.#emit(edit.escape(translated.slice(last, index), { first, last: false }));
      first = false;
      let k: number;
      if (token.charCodeAt(1) === 120 /* x */) k = edit.firstToken + Number(token.slice(2, -2)) - 1;
      else if (token.charCodeAt(1) === 47 /* / */) k = edit.firstToken + edit.atoms + 2 * (Number(token.slice(3, -1)) - 1) + 1;
      else k = edit.firstToken + edit.atoms + 2 * (Number(token.slice(2, -1)) - 1);
      const bytesStart = tokens[2 * k]!;
      const bytesEnd = tokens[2 * k + 1]!;
      if (bytesStart < 0) this.#emit(this.#literals[bytesEnd]!);
      else {
        this.#renderRange(bytesStart, bytesEnd, edit.children, translations, target);
        re.lastIndex = next; // a nested segment used the same pattern
      }
      last = next;
    }
    if (last < translated.length) {
      const run = translated.slice(last);
      this.#emit(edit.escape(run, { first, last: true }));
    }
  }
}
