/**
 * Plain text: paragraphs (runs of non-blank lines) are segments. A line break inside a
 * paragraph, with the spaces around it, is an atomic token, so line count and
 * indentation come back exactly; blank lines and outer whitespace stay in the template.
 */
import { plainEscape } from './core/escape.js';
import type { FormatAdapter } from './format.js';
import { DEFAULT_DOCUMENT_LIMITS } from './core/limits.js';
import type { DocumentLimits } from './core/limits.js';
import { PlaceholderScanner } from './core/placeholders.js';
import { ATOM, DocumentBuilder } from './core/document.js';
import * as charCodes from './core/char-codes.js';
// Module-local constants, not imported bindings, for the inner loops (why: core/char-codes.ts).
const { CARRIAGE_RETURN, DELETE, LEFT_BRACE, RIGHT_BRACE, SPACE, TAB } = charCodes;

/** What masks a run of text: a PlaceholderScanner, or one that protects more (a locale file's format directives). */
export type Masker = Pick<PlaceholderScanner, 'mask'>;

/**
 * Adds the paragraphs of `source` between `from` and `to` to `out`. `placeholders` lets
 * a caller share one scanner with other options (locale files' values keep their markup).
 */
export function plainSegments(
  out: DocumentBuilder,
  from = 0,
  to = out.source.length,
  limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS,
  placeholders: Masker = new PlaceholderScanner({ blobs: true, limits }),
): void {
  const source = out.source;
  let paraStart = -1;
  let paraEnd = -1;
  // Walk line by line; a paragraph is a maximal run of lines that are not blank. Inside
  // one, `runStart` is where the text after the last line break starts.
  let runStart = -1;
  // Line breaks inside an ICU message spread over lines are the message's own (`messages`).
  const messages = new MultiLineMessages(source);
  let joinedUntil = -1;
  // The end of the paragraph, found once per paragraph when a message needs it.
  let paragraphLimit = -1;
  for (let lineStart = from; lineStart < to; ) {
    let lineEnd = source.indexOf('\n', lineStart);
    if (lineEnd === -1 || lineEnd > to) lineEnd = to;
    const first = firstNonSpace(source, lineStart, lineEnd);
    if (first === -1) {
      if (paraStart !== -1) endParagraph(out, runStart, paraEnd, placeholders);
      paraStart = -1;
    } else {
      if (paraStart === -1) {
        paraStart = runStart = first;
        joinedUntil = paragraphLimit = -1;
        out.begin(first, -1, 'block', plainEscape);
      } else if (lineStart - 1 < joinedUntil) {
        // Inside a message that closes further down: the run goes on.
      } else {
        const closes = messages.closeAfter(Math.max(runStart, joinedUntil), lineStart - 1, () => (paragraphLimit = paragraphLimit === -1 ? paragraphEnd(source, lineStart, to) : paragraphLimit));
        if (closes !== -1) joinedUntil = closes;
        else runStart = lineBreak(out, runStart, lineStart - 1, placeholders);
      }
      paraEnd = lastNonSpace(source, lineStart, lineEnd);
    }
    lineStart = lineEnd + 1;
  }
  if (paraStart !== -1) endParagraph(out, runStart, paraEnd, placeholders);
}

/** Where the paragraph holding the line at `lineStart` ends: at the first blank line or `to`. */
function paragraphEnd(source: string, lineStart: number, to: number): number {
  for (let at = lineStart; at < to; ) {
    let lineEnd = source.indexOf('\n', at);
    if (lineEnd === -1 || lineEnd > to) lineEnd = to;
    if (firstNonSpace(source, at, lineEnd) === -1) return at;
    at = lineEnd + 1;
  }
  return to;
}

/** The opening of an ICU plural, selectordinal or select message: `{count, plural,`. */
const ICU_MESSAGE_START = /\{\s*[\p{L}\p{N}_$.-]+\s*,\s*(?:plural|selectordinal|select)\s*,/uy;

/**
 * ICU messages written over several lines (`{files, plural,⏎  one {# file}⏎  other {# files}⏎}`):
 * a line break inside one is part of its skeleton, not a line break of the text, or the
 * skeleton would be cut into runs and translated as words. Braces are matched once per
 * text, on first need, so a paragraph of unclosed openings stays linear.
 */
class MultiLineMessages {
  /** For each `{` (by offset), one past its matching `}`; filled on first need. */
  #closes: Map<number, number> | undefined;

  constructor(private readonly source: string) {}

  /**
   * One past the end of the last message that opens in `[from, lineBreak)` and is still
   * open at `lineBreak` but closes before `end`; -1 when none does.
   */
  closeAfter(from: number, lineBreak: number, paragraphEnd: () => number): number {
    const source = this.source;
    const start = ICU_MESSAGE_START;
    let found = -1;
    // Only this line's own characters are read (a regex search could run to the end of the text).
    for (let i = from; i < lineBreak; i++) {
      if (source.charCodeAt(i) !== LEFT_BRACE) continue;
      start.lastIndex = i;
      if (!start.test(source)) continue;
      const close = this.#closeOf(i);
      if (close > lineBreak && close <= paragraphEnd()) found = Math.max(found, close);
    }
    return found;
  }

  #closeOf(open: number): number {
    if (this.#closes === undefined) {
      const closes = new Map<number, number>();
      const stack: number[] = [];
      const source = this.source;
      for (let i = source.indexOf('{'); i !== -1 && i < source.length; i++) {
        const c = source.charCodeAt(i);
        if (c === LEFT_BRACE) stack.push(i);
        else if (c === RIGHT_BRACE && stack.length > 0) closes.set(stack.pop()!, i + 1);
      }
      this.#closes = closes;
    }
    return this.#closes.get(open) ?? -1;
  }
}

/**
 * The `\n` at `at` inside a paragraph: the text before it, then the atom
 * `[ \t]*\r?\n[ \t]*` around it. Returns where the next run starts.
 */
function lineBreak(out: DocumentBuilder, runStart: number, at: number, placeholders: Masker): number {
  const source = out.source;
  let start = at;
  if (start > runStart && source.charCodeAt(start - 1) === CARRIAGE_RETURN) start--;
  while (start > runStart && isBlank(source.charCodeAt(start - 1))) start--;
  let end = at + 1;
  while (isBlank(source.charCodeAt(end))) end++;
  placeholders.mask(out, source, runStart, start);
  out.mark(ATOM, start, end, 0);
  return end;
}

const isBlank = (c: number): boolean => c === SPACE || c === TAB;

function endParagraph(out: DocumentBuilder, runStart: number, end: number, placeholders: Masker): void {
  placeholders.mask(out, out.source, runStart, end);
  out.commit(end);
}

const WHITE_SPACE = /\s/;
/** ASCII fast path; anything else asks the regex (Unicode spaces count too). */
function isSpace(source: string, i: number): boolean {
  const c = source.charCodeAt(i);
  if (c === SPACE || (c >= TAB && c <= CARRIAGE_RETURN)) return true;
  return c > DELETE && WHITE_SPACE.test(source[i]!);
}

function firstNonSpace(source: string, from: number, to: number): number {
  for (let i = from; i < to; i++) if (!isSpace(source, i)) return i;
  return -1;
}

function lastNonSpace(source: string, from: number, to: number): number {
  for (let i = to - 1; i >= from; i--) if (!isSpace(source, i)) return i + 1;
  return -1;
}

export const plainAdapter: FormatAdapter = {
  format: 'plain',
  extract(content, limits) {
    const out = new DocumentBuilder('plain', content);
    plainSegments(out, 0, content.length, limits);
    return out.document();
  },
};
