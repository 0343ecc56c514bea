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
  readonly segment: Segment;
  readonly tokens: Map<string, TokenBytes>;
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

/**
 * Numbers a draft's tokens and builds its masked text. Returns null when the draft has
 * nothing a translator could change (only whitespace, tokens, digits, punctuation).
 */
function buildSegment(draft: SegmentDraft): { text: string; tokens: Map<string, TokenBytes> } | null {
  // Literal token-like text in a decoded run (an HTML `&lt;g1&gt;`) becomes an atom,
  // so the masked text never contains a token the source does not own.
  const parts: Part[] = [];
  for (const part of draft.parts) {
    if (part.type !== 'text') {
      parts.push(part);
      continue;
    }
    let last = 0;
    for (const match of part.value.matchAll(TOKEN_PATTERN)) {
      if (match.index > last) parts.push({ type: 'text', value: part.value.slice(last, match.index) });
      parts.push({ type: 'atom', bytes: { literal: draft.escape(match[0], { first: false, last: false }) } });
      last = match.index + match[0].length;
    }
    if (last < part.value.length) parts.push({ type: 'text', value: part.value.slice(last) });
  }

  const opened = new Set<number>();
  const closed = new Set<number>();
  for (const part of parts) {
    if (part.type === 'open') opened.add(part.pair);
    else if (part.type === 'close' && opened.has(part.pair)) closed.add(part.pair);
  }

  let text = '';
  let hasLetter = false;
  let atoms = 0;
  let pairs = 0;
  const pairNumber = new Map<number, number>();
  const tokens = new Map<string, TokenBytes>();
  for (const part of parts) {
    if (part.type === 'text') {
      text += part.value;
      if (!hasLetter && LETTER.test(part.value)) hasLetter = true;
      continue;
    }
    // An open without its close (or the reverse) cannot be moved safely: it is an atom.
    if (part.type === 'atom' || !closed.has(part.pair)) {
      const token = `<x${++atoms}/>`;
      tokens.set(token, part.bytes);
      text += token;
    } else if (part.type === 'open') {
      const n = ++pairs;
      pairNumber.set(part.pair, n);
      tokens.set(`<g${n}>`, part.bytes);
      text += `<g${n}>`;
    } else {
      const token = `</g${pairNumber.get(part.pair)}>`;
      tokens.set(token, part.bytes);
      text += token;
    }
  }
  return hasLetter ? { text, tokens } : null;
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
    for (const draft of drafts) {
      const result = buildSegment(draft);
      if (!result) continue;
      built.push({
        kind: 'segment',
        start: draft.start,
        end: draft.end,
        tokens: result.tokens,
        escape: draft.escape,
        bidiInside: draft.bidiInside ?? false,
        children: [],
        segment: {
          id: '',
          text: result.text,
          kind: draft.kind,
          ...(draft.ctx !== undefined ? { ctx: draft.ctx } : {}),
          ...(draft.singleLine ? { singleLine: true } : {}),
        },
      });
    }
    built.sort((a, b) => a.start - b.start || b.end - a.end);
    const segments: Segment[] = [];
    for (const [index, edit] of built.entries()) {
      const segment = { ...edit.segment, id: `s${index + 1}` };
      (edit as { segment: Segment }).segment = segment;
      segments.push(segment);
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
      const bytes = edit.tokens.get(match[0])!;
      if ('literal' in bytes) out.push(bytes.literal);
      else this.#renderRange(bytes.start, bytes.end, edit.children, translations, target, out);
      last = match.index + match[0].length;
    }
    if (last < translated.length) emitText(translated.slice(last), true);
  }
}
