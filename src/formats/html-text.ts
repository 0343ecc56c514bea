/**
 * Translated HTML text back into the page (docs/formats.md § html, decision 0008).
 *
 * A segment's text shows every whitespace run as one space and every character reference
 * decoded: that is what a model should read. When a translation comes back, its text
 * goes where the source's was, and two things of the source are given back:
 *  - whitespace runs: the run right after a token (`</a>` then a line break and
 *    indentation) and right before one are the source's run at that token; the others,
 *    in order, are the source's k-th run when the translation has as many as the source,
 *    and one space otherwise. Whitespace at the translation's edges is dropped: the
 *    whitespace around a segment is template, never translated text;
 *  - character references: when a character occurs as often in the translation as in the
 *    source, its k-th occurrence takes the source's k-th spelling (`&#39;`, `&nbsp;`,
 *    or the bare character).
 * Anything else gets the least escaping HTML needs (escape.ts htmlTextEscape). Under the
 * pseudo engine everything lines up, so its output minus its marks is the source byte for
 * byte; a real model's reflowed sentence still keeps the whitespace around its tags.
 */
import { decodeHTML } from 'entities/decode';
import { escapeHtmlText, htmlTextEscape } from './escape.js';
import { TOKEN_PATTERN } from './segment.js';
import type { Escaper, SegmentSource } from './template.js';

const AMPERSAND = 38;
const SEMICOLON = 59;
const SPACE = ' ';
/** HTML's whitespace in text (not `\v`, not U+00A0: a no-break space is a character like any other). */
const SPACE_RUN = /[ \t\n\r\f]+/g;
const IS_SPACE = /^[ \t\n\r\f]+$/;
/** What may hold more than one space, a line break or a character reference: else there is nothing to give back. */
const SOURCE_TO_KEEP = /[\t\n\r\f&]| {2}/;
const REFERENCE = /&(?:#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[A-Za-z][A-Za-z0-9]*;?)/y;
const TOKENS = new RegExp(TOKEN_PATTERN.source, 'g');

function isSpaceCode(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12;
}

/** A masked text cut at its tokens: `texts[i]` lies between `tokens[i - 1]` and `tokens[i]`. */
interface Pieces {
  readonly texts: string[];
  readonly tokens: string[];
}

function piecesOf(text: string): Pieces {
  const texts: string[] = [];
  const tokens: string[] = [];
  let last = 0;
  TOKENS.lastIndex = 0;
  for (let match = TOKENS.exec(text); match; match = TOKENS.exec(text)) {
    texts.push(text.slice(last, match.index));
    tokens.push(match[0]);
    last = match.index + match[0].length;
  }
  texts.push(text.slice(last));
  return { texts, tokens };
}

/** What the source's text gives back to a translation. */
class SourceText {
  /** The whitespace run right after a token, and right before one (by token). */
  readonly afterToken = new Map<string, string>();
  readonly beforeToken = new Map<string, string>();
  /** The other runs, in order. */
  readonly innerRuns: string[] = [];
  /** For each character the source spells at least once as a reference: its spellings, in order. */
  readonly spellings = new Map<string, string[]>();
}

/**
 * Reads the source text of `segment` around its tokens. Undefined when it cannot be
 * lined up with the segment's text (a token with literal bytes, a decoding that differs):
 * the translation then gets single spaces and the least escaping.
 */
function readSource(segment: SegmentSource): SourceText | undefined {
  const { source, text } = segment;
  const { texts, tokens } = piecesOf(text);
  const found = new SourceText();
  const chars: string[] = [];
  const spelled: string[] = [];
  const referenced = new Set<string>();
  for (let i = 0; i < texts.length; i++) {
    const from = i === 0 ? segment.start : segment.tokenEnd(tokens[i - 1]!);
    const to = i === texts.length - 1 ? segment.end : segment.tokenStart(tokens[i]!);
    if (from === undefined || to === undefined || to < from) return undefined;
    let collapsed = '';
    let runStart = -1;
    const endRun = (at: number): void => {
      if (runStart < 0) return;
      const raw = source.slice(runStart, at);
      const afterToken = runStart === from && i > 0;
      const beforeToken = at === to && i < tokens.length;
      if (afterToken) found.afterToken.set(tokens[i - 1]!, raw);
      if (beforeToken) found.beforeToken.set(tokens[i]!, raw);
      if (!afterToken && !beforeToken) found.innerRuns.push(raw);
      collapsed += SPACE;
      runStart = -1;
    };
    for (let k = from; k < to; ) {
      let decoded: string;
      let length = 1;
      if (source.charCodeAt(k) === AMPERSAND) {
        REFERENCE.lastIndex = k;
        const reference = REFERENCE.exec(source)?.[0];
        decoded = reference === undefined || reference.length > to - k ? '&' : decodeHTML(reference);
        if (reference !== undefined && decoded !== reference) length = reference.length;
        else decoded = '&';
      } else {
        decoded = source[k]!;
      }
      if (length === 1 ? isSpaceCode(decoded.charCodeAt(0)) : IS_SPACE.test(decoded)) {
        if (runStart < 0) runStart = k;
      } else {
        endRun(k);
        collapsed += decoded;
        // A legacy reference without `;` may decode to several characters (`&copy2020`): those keep no spelling.
        const spelling = length === 1 ? decoded : decoded.length === 1 ? source.slice(k, k + length) : undefined;
        for (const c of decoded) {
          chars.push(c);
          spelled.push(spelling ?? c);
          if (spelling !== undefined && spelling !== c) referenced.add(c);
        }
      }
      k += length;
    }
    endRun(to);
    if (collapsed !== texts[i]) return undefined;
  }
  for (let k = 0; k < chars.length; k++) {
    const c = chars[k]!;
    if (!referenced.has(c)) continue;
    let list = found.spellings.get(c);
    if (!list) found.spellings.set(c, (list = []));
    list.push(spelled[k]!);
  }
  return found;
}

/**
 * The translation's text pieces as they go into the page, in order (the template asks
 * for the non-empty ones). `found` undefined: single spaces and the least escaping.
 */
function renderPieces(translated: string, found: SourceText | undefined): string[] {
  const { texts, tokens } = piecesOf(translated);
  const last = texts.length - 1;
  const inner = found !== undefined && innerRunCount(texts) === found.innerRuns.length ? found.innerRuns : undefined;
  let innerIndex = 0;
  const spelling = found && found.spellings.size > 0 ? new Spelling(texts, found.spellings) : undefined;
  const out: string[] = [];
  for (let i = 0; i <= last; i++) {
    const piece = texts[i]!;
    let rendered = '';
    let from = 0;
    for (const run of piece.matchAll(SPACE_RUN)) {
      rendered += textOf(piece, from, run.index, false, spelling);
      from = run.index + run[0].length;
      const atStart = run.index === 0;
      const atEnd = from === piece.length;
      // The translation's own edges: the whitespace around a segment is template.
      if ((atStart && i === 0) || (atEnd && i === last)) continue;
      let raw: string | undefined;
      if (atStart) raw = found?.afterToken.get(tokens[i - 1]!) ?? (atEnd ? found?.beforeToken.get(tokens[i]!) : undefined);
      else if (atEnd) raw = found?.beforeToken.get(tokens[i]!);
      else raw = inner?.[innerIndex++];
      rendered += raw ?? SPACE;
    }
    rendered += textOf(piece, from, piece.length, i < last, spelling);
    out.push(rendered);
  }
  return out;
}

/** The translation's whitespace runs that touch no token and no edge (the source's k-th inner run goes to the k-th). */
function innerRunCount(texts: readonly string[]): number {
  let count = 0;
  for (const piece of texts) {
    for (const run of piece.matchAll(SPACE_RUN)) if (run.index > 0 && run.index + run[0].length < piece.length) count++;
  }
  return count;
}

/** The source's spellings of the characters it spells as references, for those the translation has as often. */
class Spelling {
  readonly #aligned = new Map<string, string[]>();
  readonly #used = new Map<string, number>();

  constructor(texts: readonly string[], spellings: ReadonlyMap<string, string[]>) {
    const counts = new Map<string, number>();
    for (const piece of texts) for (const c of piece) if (spellings.has(c)) counts.set(c, (counts.get(c) ?? 0) + 1);
    for (const [c, list] of spellings) if (counts.get(c) === list.length) this.#aligned.set(c, list);
  }

  /** The source's spelling of this occurrence of `c`, or undefined (then it is written as it is). */
  next(c: string): string | undefined {
    const list = this.#aligned.get(c);
    if (list === undefined) return undefined;
    const k = this.#used.get(c) ?? 0;
    this.#used.set(c, k + 1);
    return list[k];
  }
}

/** `piece[from, to)` (no whitespace in it), escaped: the source's references where they line up, else as little as HTML needs. */
function textOf(piece: string, from: number, to: number, markupFollows: boolean, spelling: Spelling | undefined): string {
  if (to <= from) return '';
  const text = piece.slice(from, to);
  if (spelling === undefined) return escapeHtmlText(text, markupFollows);
  let out = '';
  let plainFrom = 0;
  for (let k = 0; k < text.length; k++) {
    const form = spelling.next(text[k]!);
    if (form === undefined || form.length === 1) continue;
    out += escapeHtmlText(text.slice(plainFrom, k), false) + form;
    plainFrom = k + 1;
  }
  return out + escapeHtmlText(text.slice(plainFrom), markupFollows);
}

/**
 * The escaper of html text segments: a run alone gets the least escaping (escape.ts);
 * a whole changed translation gets the source's whitespace and references back.
 */
export const htmlSourceText: Escaper = Object.assign((run: string, at: { readonly first: boolean; readonly last: boolean }) => htmlTextEscape(run, at), {
  forSegment(segment: SegmentSource, translated: string): Escaper {
    const raw = segment.source.slice(segment.start, segment.end);
    const found = SOURCE_TO_KEEP.test(raw) ? readSource(segment) : undefined;
    const pieces = renderPieces(translated, found);
    const { texts } = piecesOf(translated);
    let next = 0;
    return (run: string, at: { readonly first: boolean; readonly last: boolean }): string => {
      while (next < texts.length && texts[next] === '') next++;
      // The template asks for the non-empty pieces in order; anything else gets the plain escaper.
      if (next < texts.length && texts[next] === run) return pieces[next++]!;
      return htmlTextEscape(run, at);
    };
  },
});

/** Whether `source[start, end)` is one character reference that stands for whitespace (`&#13;`, `&Tab;`). */
function isSpaceReference(source: string, start: number, end: number): boolean {
  REFERENCE.lastIndex = start;
  const reference = REFERENCE.exec(source)?.[0];
  return reference !== undefined && reference.length === end - start && IS_SPACE.test(decodeHTML(reference));
}

/** The longest reference name the whitespace ones need (`&NewLine;`, `&#x0000D;`). */
const SPACE_REFERENCE_LENGTH = 12;

/**
 * Where the text of `source[start, end)` starts once its leading whitespace is skipped,
 * character references to whitespace included (DocBook pages open paragraphs with
 * `&#13;` and tabs): segment edges are template, never translated text.
 */
export function skipLeadingSpace(source: string, start: number, end: number): number {
  let i = start;
  while (i < end) {
    if (isSpaceCode(source.charCodeAt(i))) i++;
    else if (source.charCodeAt(i) === AMPERSAND) {
      REFERENCE.lastIndex = i;
      const reference = REFERENCE.exec(source)?.[0];
      if (reference === undefined || i + reference.length > end || !IS_SPACE.test(decodeHTML(reference))) break;
      i += reference.length;
    } else break;
  }
  return i;
}

/** Where the text of `source[start, end)` ends once its trailing whitespace (references included) is cut off. */
export function skipTrailingSpace(source: string, start: number, end: number): number {
  let i = end;
  while (i > start) {
    if (isSpaceCode(source.charCodeAt(i - 1))) i--;
    else if (source.charCodeAt(i - 1) === SEMICOLON) {
      const at = source.lastIndexOf('&', i - 1);
      if (at < start || i - at > SPACE_REFERENCE_LENGTH || !isSpaceReference(source, at, i)) break;
      i = at;
    } else break;
  }
  return i;
}
