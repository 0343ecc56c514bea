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
 * Anything else gets the least escaping HTML needs (core/escape.ts escapeHtmlText). Under the
 * pseudo engine everything lines up, so its output minus its marks is the source byte for
 * byte; a real model's reflowed sentence still keeps the whitespace around its tags.
 */
import { decodeHTML } from 'entities/decode';
import { escapeHtmlText, htmlTextEscape } from '../core/escape.js';
import { SEGMENT_MARK_PATTERN } from '../../segments/segment.js';
import type { Escaper, SegmentSource } from '../core/document.js';
import * as charCodes from '../core/char-codes.js';
// Module-local constants, not imported bindings, for the inner loops (why: core/char-codes.ts).
const { AMPERSAND, CARRIAGE_RETURN, DIGIT_0, DIGIT_9, FORM_FEED, LINE_FEED, LOWER_X, SEMICOLON, SLASH, SPACE, TAB } = charCodes;

const ONE_SPACE = ' ';
/** HTML's whitespace in text (not `\v`, not U+00A0: a no-break space is a character like any other). */
const IS_SPACE = /^[ \t\n\r\f]+$/;
/** What may hold more than one space, a line break or a character reference: else there is nothing to give back. */
const SOURCE_TO_KEEP = /[\t\n\r\f&]| {2}/;
const REFERENCE = /&(?:#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[A-Za-z][A-Za-z0-9]*;?)/y;
const SEGMENT_MARKS = new RegExp(SEGMENT_MARK_PATTERN.source, 'g');

function isSpaceCode(c: number): boolean {
  return c === SPACE || c === TAB || c === LINE_FEED || c === CARRIAGE_RETURN || c === FORM_FEED;
}


/** A small number per token, the same for equal tokens: `<xN/>` 3N, `<gN>` 3N + 1, `</gN>` 3N + 2. */
function tokenKey(token: string): number {
  const closing = token.charCodeAt(1) === SLASH;
  let n = 0;
  for (let i = closing ? 3 : 2, c = token.charCodeAt(i); c >= DIGIT_0 && c <= DIGIT_9; c = token.charCodeAt(++i)) n = 10 * n + c - DIGIT_0;
  return 3 * n + (token.charCodeAt(1) === LOWER_X ? 0 : closing ? 2 : 1);
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
  SEGMENT_MARKS.lastIndex = 0;
  for (let match = SEGMENT_MARKS.exec(text); match; match = SEGMENT_MARKS.exec(text)) {
    texts.push(text.slice(last, match.index));
    tokens.push(match[0]);
    last = match.index + match[0].length;
  }
  texts.push(text.slice(last));
  return { texts, tokens };
}

/** What the source's text gives back to a translation. */
class SourceText {
  /** The whitespace run right after a token, and right before one (by tokenKey). */
  readonly afterToken: string[] = [];
  readonly beforeToken: string[] = [];
  /** The other runs, in order. */
  readonly innerRuns: string[] = [];
  /** For each character the source spells at least once as a reference: its spellings, in order. */
  readonly spellings = new Map<string, string[]>();
}

/** The source's whitespace run `raw` in piece `i` (between `tokens[i - 1]` and `tokens[i]`), filed by where it is. */
function fileRun(found: SourceText, tokens: readonly string[], i: number, raw: string, afterToken: boolean, beforeToken: boolean): void {
  if (afterToken) found.afterToken[tokenKey(tokens[i - 1]!)] = raw;
  if (beforeToken) found.beforeToken[tokenKey(tokens[i]!)] = raw;
  if (!afterToken && !beforeToken) found.innerRuns.push(raw);
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
  /** References to one character other than whitespace, by the character's offset in `texts.join('')`: their spelling. */
  const referenced = new Map<number, string>();
  /** The characters those references stand for. */
  const characters = new Set<string>();
  let offset = 0;
  for (let i = 0; i < texts.length; i++) {
    const from = i === 0 ? segment.start : segment.tokenEnd(tokens[i - 1]!);
    const to = i === texts.length - 1 ? segment.end : segment.tokenStart(tokens[i]!);
    if (from === undefined || to === undefined || to < from) return undefined;
    let collapsed = '';
    let runStart = -1;
    let plainFrom = from;
    for (let k = from; k < to; ) {
      let decoded: string | undefined;
      let length = 1;
      const c = source.charCodeAt(k);
      if (c === AMPERSAND) {
        REFERENCE.lastIndex = k;
        const reference = REFERENCE.exec(source)?.[0];
        if (reference !== undefined && reference.length <= to - k) {
          const value = decodeHTML(reference);
          if (value !== reference) {
            decoded = value;
            length = reference.length;
          }
        }
      }
      const isSpace = decoded === undefined ? isSpaceCode(c) : IS_SPACE.test(decoded);
      if (isSpace) {
        if (runStart < 0) {
          collapsed += source.slice(plainFrom, k);
          runStart = k;
        }
      } else if (runStart >= 0 || decoded !== undefined) {
        if (runStart >= 0) {
          fileRun(found, tokens, i, source.slice(runStart, k), runStart === from && i > 0, false);
          collapsed += ONE_SPACE;
          runStart = -1;
        } else {
          collapsed += source.slice(plainFrom, k);
        }
        plainFrom = k;
        if (decoded !== undefined) {
          // A legacy reference without `;` may stand for several characters (`&copy2020`): no spelling is kept for those.
          if (decoded.length === 1) {
            referenced.set(offset + collapsed.length, source.slice(k, k + length));
            characters.add(decoded);
          }
          collapsed += decoded;
          plainFrom = k + length;
        }
      }
      k += length;
    }
    if (runStart >= 0) {
      fileRun(found, tokens, i, source.slice(runStart, to), runStart === from && i > 0, i < tokens.length);
      collapsed += ONE_SPACE;
    } else {
      collapsed += source.slice(plainFrom, to);
    }
    if (collapsed !== texts[i]) return undefined;
    offset += collapsed.length;
  }
  // Every occurrence of a referenced character, in order: its reference, or the bare character.
  for (const c of characters) {
    const list: string[] = [];
    let base = 0;
    for (const piece of texts) {
      for (let at = piece.indexOf(c); at >= 0; at = piece.indexOf(c, at + 1)) list.push(referenced.get(base + at) ?? c);
      base += piece.length;
    }
    found.spellings.set(c, list);
  }
  return found;
}

/** The end of the whitespace run starting at `from` of `text` (`from` itself when there is none). */
function spaceEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpaceCode(text.charCodeAt(i))) i++;
  return i;
}

/** The translation's whitespace runs that touch no token and no edge (the source's k-th inner run goes to the k-th). */
function innerRunCount(texts: readonly string[]): number {
  let count = 0;
  for (const piece of texts) {
    for (let i = 1; i < piece.length; i++) {
      if (!isSpaceCode(piece.charCodeAt(i))) continue;
      const end = spaceEnd(piece, i);
      if (end < piece.length) count++;
      i = end;
    }
  }
  return count;
}

/**
 * The translation's text pieces as they go into the page, in order (the template asks
 * for the non-empty ones). `found` undefined: single spaces and the least escaping.
 */
function renderPieces(texts: readonly string[], tokens: readonly string[], found: SourceText | undefined): string[] {
  const last = texts.length - 1;
  const inner = found !== undefined && innerRunCount(texts) === found.innerRuns.length ? found.innerRuns : undefined;
  let innerIndex = 0;
  const spelling = found && found.spellings.size > 0 ? new Spelling(texts, found.spellings) : undefined;
  const out: string[] = new Array(texts.length);
  for (let i = 0; i <= last; i++) {
    const piece = texts[i]!;
    let rendered = '';
    let from = 0;
    for (let k = 0; k < piece.length; k++) {
      if (!isSpaceCode(piece.charCodeAt(k))) continue;
      const runEnd = spaceEnd(piece, k);
      rendered += textOf(piece, from, k, false, spelling);
      const atStart = k === 0;
      const atEnd = runEnd === piece.length;
      from = k = runEnd;
      // The translation's own edges: the whitespace around a segment is template.
      if ((atStart && i === 0) || (atEnd && i === last)) continue;
      let raw: string | undefined;
      if (atStart) raw = found?.afterToken[tokenKey(tokens[i - 1]!)] ?? (atEnd ? found?.beforeToken[tokenKey(tokens[i]!)] : undefined);
      else if (atEnd) raw = found?.beforeToken[tokenKey(tokens[i]!)];
      else raw = inner?.[innerIndex++];
      rendered += raw ?? ONE_SPACE;
    }
    out[i] = rendered + textOf(piece, from, piece.length, i < last, spelling);
  }
  return out;
}

/** The source's spellings of the characters it spells as references, for those the translation has as often. */
class Spelling {
  readonly #aligned = new Map<string, string[]>();
  readonly #used = new Map<string, number>();

  constructor(texts: readonly string[], spellings: ReadonlyMap<string, string[]>) {
    for (const [c, list] of spellings) {
      let count = 0;
      for (const piece of texts) for (let at = piece.indexOf(c); at >= 0; at = piece.indexOf(c, at + 1)) count++;
      if (count === list.length) this.#aligned.set(c, list);
    }
  }

  /** Whether any character of `text` may take a spelling. */
  touches(text: string): boolean {
    for (const c of this.#aligned.keys()) if (text.includes(c)) return true;
    return false;
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
  const text = from === 0 && to === piece.length ? piece : piece.slice(from, to);
  if (spelling === undefined || !spelling.touches(text)) return escapeHtmlText(text, markupFollows);
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
 * A run with one space for each whitespace run, none at the translation's edges, and the
 * least escaping: what a translation gets when the source has nothing to give back (no
 * line break, tab, double space or reference). The template's `first` and `last` are the
 * translation's first and last pieces, so each run is done on its own.
 */
const singleSpaced: Escaper = (run, at) => {
  let text = run;
  if (at.first) text = text.slice(spaceEnd(text, 0));
  if (at.last) {
    let end = text.length;
    while (end > 0 && isSpaceCode(text.charCodeAt(end - 1))) end--;
    text = text.slice(0, end);
  }
  return escapeHtmlText(hasSpaceToCollapse(text) ? text.replace(SPACE_RUNS, ONE_SPACE) : text, !at.last);
};

const SPACE_RUNS = /[ \t\n\r\f]+/g;

/** Whether collapsing would change `text`: a tab, line break, form feed or two spaces in a row. */
export function hasSpaceToCollapse(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === SPACE ? text.charCodeAt(i + 1) === SPACE : isSpaceCode(c)) return true;
  }
  return false;
}

/**
 * The escaper of html text segments: a run alone gets the least escaping (core/escape.ts);
 * a whole changed translation gets the source's whitespace and references back.
 */
export const htmlSourceText: Escaper = Object.assign((run: string, at: { readonly first: boolean; readonly last: boolean }) => htmlTextEscape(run, at), {
  forSegment(segment: SegmentSource, translated: string): Escaper {
    const raw = segment.source.slice(segment.start, segment.end);
    const found = SOURCE_TO_KEEP.test(raw) ? readSource(segment) : undefined;
    if (found === undefined) return singleSpaced;
    const { texts, tokens } = piecesOf(translated);
    const pieces = renderPieces(texts, tokens, found);
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
