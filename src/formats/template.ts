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

interface BuiltSegment {
  readonly kind: 'segment';
  readonly start: number;
  readonly end: number;
  segment: Segment;
  /** Token bytes by number: `<xN/>` → atoms[N-1], `<gN>` → opens[N-1], `</gN>` → closes[N-1]. */
  readonly tokens: SegmentTokens;
  readonly escape: Escaper;
  readonly bidiInside: boolean;
  children: Edit[];
}

interface SegmentTokens {
  readonly atoms: TokenBytes[];
  readonly opens: TokenBytes[];
  readonly closes: TokenBytes[];
}

interface PatchEdit {
  readonly kind: 'patch';
  readonly start: number;
  readonly end: number;
  readonly patch: Patch;
  children: Edit[];
}

type Edit = BuiltSegment | PatchEdit;

/** The bytes of a token of a built segment (the token is known to be valid for it). */
function tokenBytes(tokens: SegmentTokens, token: string): TokenBytes {
  if (token.charCodeAt(1) === 120 /* x */) return tokens.atoms[Number(token.slice(2, -2)) - 1]!;
  if (token.charCodeAt(1) === 47 /* / */) return tokens.closes[Number(token.slice(3, -1)) - 1]!;
  return tokens.opens[Number(token.slice(2, -1)) - 1]!;
}

/** Splits literal token-like text (`<g1>` in the source) of a run into atoms. */
function splitLiteralTokens(value: string, escape: Escaper, out: Part[]): void {
  let last = 0;
  for (const match of value.matchAll(TOKEN_PATTERN)) {
    if (match.index > last) out.push({ type: 'text', value: value.slice(last, match.index) });
    out.push({ type: 'atom', bytes: { literal: escape(match[0], { first: false, last: false }) } });
    last = match.index + match[0].length;
  }
  if (last < value.length) out.push({ type: 'text', value: value.slice(last) });
}

/** Shared by segments without pairs (never written: only pairs push to it). */
const NONE: TokenBytes[] = [];

const MAYBE_TOKEN = /<(?:\/?g|x)\d/;

/**
 * Numbers a draft's tokens and builds its masked text. Returns null when the draft has
 * nothing a translator could change (only whitespace, tokens, digits, punctuation).
 */
function buildSegment(draft: SegmentDraft): { text: string; tokens: SegmentTokens } | null {
  // Literal token-like text in a decoded run (an HTML `&lt;g1&gt;`) becomes an atom,
  // so the masked text never contains a token the source does not own.
  let parts = draft.parts;
  let hasPairs = false;
  let literalTokens = false;
  for (const part of parts) {
    if (part.type === 'text') {
      if (!literalTokens && part.value.length > 3 && MAYBE_TOKEN.test(part.value)) literalTokens = true;
    } else if (part.type !== 'atom') hasPairs = true;
  }
  if (literalTokens) {
    const split: Part[] = [];
    for (const part of parts) {
      if (part.type === 'text') splitLiteralTokens(part.value, draft.escape, split);
      else split.push(part);
    }
    parts = split;
  }

  let closed: Set<number> | undefined;
  if (hasPairs) {
    const opened = new Set<number>();
    closed = new Set<number>();
    for (const part of parts) {
      if (part.type === 'open') opened.add(part.pair);
      else if (part.type === 'close' && opened.has(part.pair)) closed.add(part.pair);
    }
  }

  let text = '';
  let hasLetter = false;
  const atoms: TokenBytes[] = [];
  const opens: TokenBytes[] = hasPairs ? [] : NONE;
  const closes: TokenBytes[] = hasPairs ? [] : NONE;
  let pairNumber: Map<number, number> | undefined;
  for (const part of parts) {
    if (part.type === 'text') {
      text += part.value;
      if (!hasLetter && LETTER.test(part.value)) hasLetter = true;
      continue;
    }
    // An open without its close (or the reverse) cannot be moved safely: it is an atom.
    if (part.type === 'atom' || !closed!.has(part.pair)) {
      atoms.push(part.bytes);
      text += `<x${atoms.length}/>`;
    } else if (part.type === 'open') {
      opens.push(part.bytes);
      closes.push(part.bytes); // placeholder until the close is seen
      (pairNumber ??= new Map()).set(part.pair, opens.length);
      text += `<g${opens.length}>`;
    } else {
      const n = pairNumber!.get(part.pair)!;
      closes[n - 1] = part.bytes;
      text += `</g${n}>`;
    }
  }
  return hasLetter ? { text, tokens: { atoms, opens, closes } } : null;
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
    (parent ? parent.children : roots).push(edit);
    stack.push(edit);
  }
  return roots;
}

export class TemplateDocument implements ExtractedDocument {
  readonly segments: readonly Segment[];
  readonly #roots: Edit[];

  constructor(
    readonly format: Format,
    private readonly source: string,
    drafts: readonly SegmentDraft[],
    patches: readonly Patch[] = [],
  ) {
    const built: BuiltSegment[] = [];
    let sorted = true;
    for (const draft of drafts) {
      const result = buildSegment(draft);
      if (!result) continue;
      const previous = built[built.length - 1];
      if (previous && (previous.start > draft.start || (previous.start === draft.start && previous.end < draft.end))) sorted = false;
      const segment: { id: string; text: string; kind: SegmentKind; ctx?: string; singleLine?: boolean } = { id: '', text: result.text, kind: draft.kind };
      if (draft.ctx !== undefined) segment.ctx = draft.ctx;
      if (draft.singleLine) segment.singleLine = true;
      built.push({
        kind: 'segment',
        start: draft.start,
        end: draft.end,
        tokens: result.tokens,
        escape: draft.escape,
        bidiInside: draft.bidiInside ?? false,
        children: [],
        segment,
      });
    }
    if (!sorted) built.sort((a, b) => a.start - b.start || b.end - a.end);
    const segments: Segment[] = new Array(built.length);
    for (let index = 0; index < built.length; index++) {
      const segment = built[index]!.segment as { id: string };
      segment.id = `s${index + 1}`;
      segments[index] = built[index]!.segment;
    }
    this.segments = segments;
    const edits: Edit[] = [...built];
    for (const patch of patches) edits.push({ kind: 'patch', start: patch.start, end: patch.end, patch, children: [] });
    this.#roots = nest(edits);
  }

  render(translations: ReadonlyMap<string, string>, target: RenderTarget): string {
    const out: string[] = [];
    this.#renderRange(0, this.source.length, this.#roots, translations, target, out);
    return out.join('');
  }

  #renderRange(
    start: number,
    end: number,
    edits: readonly Edit[],
    translations: ReadonlyMap<string, string>,
    target: RenderTarget,
    out: string[],
  ): void {
    let cursor = start;
    for (const edit of edits) {
      if (edit.start < start || edit.end > end) continue;
      if (edit.start > cursor) out.push(this.source.slice(cursor, edit.start));
      if (edit.kind === 'patch') out.push(edit.patch.render(target));
      else this.#renderSegment(edit, translations, target, out);
      cursor = edit.end;
    }
    if (cursor < end) out.push(this.source.slice(cursor, end));
  }

  #renderSegment(
    edit: BuiltSegment,
    translations: ReadonlyMap<string, string>,
    target: RenderTarget,
    out: string[],
  ): void {
    const { segment } = edit;
    let translated = translations.get(segment.id);
    // The source text (or no translation) renders the original bytes, which is what
    // makes identity renders byte-exact whatever the escaping of the source was.
    if (translated === undefined || translated === segment.text) {
      this.#renderRange(edit.start, edit.end, edit.children, translations, target, out);
      return;
    }
    const problem = tokenProblem(segment.text, translated);
    if (problem) {
      throw new ServiceError('translation_error', `The translation of segment ${segment.id} is unusable: ${problem}.`);
    }
    if (edit.bidiInside) translated = bidiInside(translated);
    let last = 0;
    let first = true;
    const matches = [...translated.matchAll(TOKEN_PATTERN)];
    const emitText = (run: string, isLast: boolean) => {
      if (run.length > 0) out.push(edit.escape(run, { first, last: isLast }));
      first = false;
    };
    for (const match of matches) {
      emitText(translated.slice(last, match.index), false);
      first = false;
      const bytes = tokenBytes(edit.tokens, match[0]);
      if ('literal' in bytes) out.push(bytes.literal);
      else this.#renderRange(bytes.start, bytes.end, edit.children, translations, target, out);
      last = match.index + match[0].length;
    }
    if (last < translated.length) emitText(translated.slice(last), true);
  }
}
