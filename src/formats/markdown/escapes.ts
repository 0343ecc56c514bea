/**
 * Escaping of translated markdown text that follows the source (docs/formats.md,
 * "Markdown escapes"; decision 0009). A segment's text is decoded (`\[` is `[`, `&lt;` is
 * `<`, a line break with the next line's prefix is one `\n`), so the source's own way of
 * writing each character is read back from the source when a translation is rendered:
 *
 *  - the k-th occurrence of a character in the translation takes the form of its k-th
 *    occurrence in the source: an escape or entity stays one, a bare character stays bare
 *    when its neighbours are of the same kinds as in the source (so it opens or closes
 *    nothing new). Under the pseudo engine everything lines up and the source comes back
 *    byte for byte;
 *  - the k-th line break takes the source's k-th line break bytes: trailing spaces, line
 *    ending, the next line's container prefix and indentation (lazy lines included);
 *  - a character beyond the source's (one a model wrote) is escaped only where it could
 *    form syntax there, and a line that could open a block is escaped unless it opens
 *    like the source's line did.
 */
import { decodeHTMLStrict } from 'entities/decode';
import type { Escaper, RunPlace, SegmentSource } from '../core/document.js';
import * as charCodes from '../core/char-codes.js';
// Module-local constants, not imported bindings, for the inner loops (why: core/char-codes.ts).
const { AMPERSAND, ASCII_END, AT, BACKSLASH, BACKTICK, CARRIAGE_RETURN, COLON, EXCLAMATION, FORM_FEED, LEFT_BRACE, LEFT_BRACKET, LINE_FEED, LOWER_A, LOWER_Z, QUESTION, SLASH, SPACE, TAB, TILDE, UPPER_A, UPPER_Z, VERTICAL_TAB } = charCodes;


/** What surrounds a character, as micromark classifies it for delimiters, plus a token or segment edge. */
const EDGE = 0;
const WHITESPACE = 1;
const PUNCTUATION = 2;
const OTHER = 3;

/** How far a source line's opening is kept, to compare a translated line's with. */
const HEAD_LENGTH = 80;

function isAsciiPunctuation(code: number): boolean {
  return (code >= EXCLAMATION && code <= SLASH) || (code >= COLON && code <= AT) || (code >= LEFT_BRACKET && code <= BACKTICK) || (code >= LEFT_BRACE && code <= TILDE);
}

const UNICODE_WHITESPACE = /\s/;
const UNICODE_PUNCTUATION = /[\p{P}\p{S}]/u;
/** Letters, digits and marks are what a translation changes; bidi controls are the RTL wrap. */
const UNTRACKED = /[\p{L}\p{N}\p{M}\s\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

function classOf(code: number, char: string): number {
  if (code < ASCII_END) {
    if (code === SPACE || code === TAB || code === LINE_FEED || code === CARRIAGE_RETURN || code === VERTICAL_TAB || code === FORM_FEED) return WHITESPACE;
    return isAsciiPunctuation(code) ? PUNCTUATION : OTHER;
  }
  if (UNICODE_WHITESPACE.test(char)) return WHITESPACE;
  return UNICODE_PUNCTUATION.test(char) ? PUNCTUATION : OTHER;
}

/** A character whose form is kept: punctuation and symbols (not letters, digits, marks or whitespace). */
function isTracked(code: number, char: string): boolean {
  if (code < ASCII_END) return isAsciiPunctuation(code);
  return !UNTRACKED.test(char);
}

/** The occurrences of one tracked character in the source, in order: their bytes and the kinds of their neighbours (4 × before + after). */
interface Occurrences {
  readonly forms: string[];
  readonly around: number[];
}

/** The source side of one segment. */
interface SourceForms {
  readonly chars: Map<string, Occurrences>;
  /** The bytes of each line break, in order. */
  readonly breaks: string[];
  /** How each line opens (decoded, up to HEAD_LENGTH): line 0 at the segment start, then one per break. */
  readonly heads: string[];
}

const ENTITY = /&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/y;
/** A line break as the segment's text holds it (markdown/adapter.ts decodeText): one `\n`. */
const SOURCE_BREAK = /[ \t]*\r?\n[ \t>]*/y;
/** A line break in a translation, with the whitespace around it and any blank lines (which would end the paragraph). */
const TRANSLATION_BREAK = /[ \t]*(?:\r?\n[ \t]*)+/y;

/** Reads the forms of a segment's text from the source between its tokens, decoding as markdown/adapter.ts does. */
function readForms(layout: SegmentSource): SourceForms {
  const forms: SourceForms = { chars: new Map(), breaks: [], heads: [] };
  const source = layout.source;
  const tokens = layout.markRanges();
  let cursor = layout.start;
  for (let k = 0; k <= tokens.length; k += 2) {
    const chunkEnd = k < tokens.length ? tokens[k]! : layout.end;
    if (chunkEnd > cursor) readChunk(source, cursor, chunkEnd, cursor === layout.start, forms);
    else if (cursor === layout.start) forms.heads.push('');
    if (k < tokens.length) cursor = Math.max(cursor, tokens[k + 1]!);
  }
  if (forms.heads.length === 0) forms.heads.push('');
  return forms;
}

/**
 * One stretch of text between tokens: decoded (as markdown/adapter.ts decodes it), with the
 * source bytes of each unit that is not its own character, then its occurrences.
 */
function readChunk(source: string, from: number, to: number, first: boolean, forms: SourceForms): void {
  let decoded = '';
  /** Decoded index → source bytes, ascending, for escapes, references and line breaks. */
  const at: number[] = [];
  const raws: string[] = [];
  let plainFrom = from;
  const special = (i: number, units: string, raw: string) => {
    if (i > plainFrom) decoded += source.slice(plainFrom, i);
    at.push(decoded.length);
    raws.push(raw);
    decoded += units;
  };
  let i = from;
  while (i < to) {
    const code = source.charCodeAt(i);
    if (code === BACKSLASH && i + 1 < to && isAsciiPunctuation(source.charCodeAt(i + 1))) {
      special(i, source[i + 1]!, source.slice(i, i + 2));
      plainFrom = i += 2;
      continue;
    }
    if (code === AMPERSAND) {
      ENTITY.lastIndex = i;
      const match = ENTITY.exec(source);
      if (match && i + match[0].length <= to) {
        const value = decodeHTMLStrict(match[0]);
        // One unit takes the reference; a reference to several units is text for all of them.
        if (value !== match[0]) {
          if (value.length === 1) special(i, value, match[0]);
          else {
            if (i > plainFrom) decoded += source.slice(plainFrom, i);
            decoded += value;
          }
          plainFrom = i += match[0].length;
          continue;
        }
      }
    }
    if (code === SPACE || code === TAB || code === CARRIAGE_RETURN || code === LINE_FEED) {
      SOURCE_BREAK.lastIndex = i;
      const match = SOURCE_BREAK.exec(source);
      if (match) {
        const end = Math.min(i + match[0].length, to);
        special(i, '\n', source.slice(i, end));
        plainFrom = i = end;
        continue;
      }
      // No break from here: neither from any space of this run.
      const runStart = i;
      while (i < to && (source.charCodeAt(i) === SPACE || source.charCodeAt(i) === TAB)) i++;
      if (i === runStart) i++;
      continue;
    }
    i++;
  }
  if (to > plainFrom) decoded += source.slice(plainFrom, to);
  const head = (from: number) => {
    let end = decoded.indexOf('\n', from);
    if (end === -1 || end - from > HEAD_LENGTH) end = Math.min(decoded.length, from + HEAD_LENGTH);
    return decoded.slice(from, end);
  };
  if (first) forms.heads.push(head(0));
  let next = 0;
  const last = decoded.length - 1;
  for (let j = 0; j <= last; j++) {
    const code = decoded.charCodeAt(j);
    const raw = next < at.length && at[next] === j ? raws[next++]! : undefined;
    if (code === LINE_FEED) {
      // (A `&#10;` is text, not a line break.)
      if (raw !== undefined && raw.includes('\n')) {
        forms.breaks.push(raw);
        forms.heads.push(head(j + 1));
      }
      continue;
    }
    if (code < ASCII_END ? !isAsciiPunctuation(code) : !isTracked(code, decoded[j]!)) continue;
    const char = decoded[j]!;
    const before = j === 0 ? EDGE : classOf(decoded.charCodeAt(j - 1), decoded[j - 1]!);
    const after = j === last ? EDGE : classOf(decoded.charCodeAt(j + 1), decoded[j + 1]!);
    let list = forms.chars.get(char);
    if (!list) forms.chars.set(char, (list = { forms: [], around: [] }));
    list.forms.push(raw ?? char);
    list.around.push(4 * before + after);
  }
}

/** Where translated text lands, which decides what a character beyond the source's may form. */
export interface MarkdownPlace {
  /**
   * A line break beyond the source's: the line ending plus the paragraph's container
   * prefix, or a space where the text must stay on one line.
   */
  readonly newline: string;
  /** The segment opens a line (a paragraph): its first line could open a block. */
  readonly lineStart?: boolean;
  /** A table cell: `|` would end it. */
  readonly table?: boolean;
  /** A heading: a trailing `#` run would be its closing sequence. */
  readonly heading?: boolean;
  /** A title inside these quotes: only escapes, references and the closing quote mean anything. */
  readonly titleClose?: '"' | "'" | ')';
}

const NO_FORMS: SourceForms = { chars: new Map(), breaks: [], heads: [] };
const FIRST_MARK = /<\/?g\d+>|<x\d+\/>/;

/** The rendering of one translation of one segment: its runs come in order. */
class SegmentEscape {
  readonly #counts = new Map<string, number>();
  #breaks = 0;
  /** Bracket and token positions in the translation: `[` and `]` matter only with a partner. */
  readonly #lastClose: number;
  readonly #lastTokenStart: number;
  readonly #firstOpen: number;
  readonly #firstMarkStart: number;

  constructor(
    private readonly forms: SourceForms,
    private readonly place: MarkdownPlace,
    translation: string,
  ) {
    this.#lastClose = translation.lastIndexOf(']');
    this.#firstOpen = translation.indexOf('[');
    const first = FIRST_MARK.exec(translation);
    this.#firstMarkStart = first ? first.index : Infinity;
    this.#lastTokenStart = Math.max(translation.lastIndexOf('<g'), translation.lastIndexOf('</g'), translation.lastIndexOf('<x'));
  }

  escape(run: string, at: RunPlace): string {
    const offset = at.offset ?? 0;
    const place = this.place;
    let out = '';
    // The index in `run` of a line-opening character to escape (it would open a block).
    let force = at.first && place.lineStart ? this.#lineOpening(run, 0, 0) : -1;
    for (let i = 0; i < run.length; ) {
      const code = run.charCodeAt(i);
      if (code === SPACE || code === TAB || code === CARRIAGE_RETURN || code === LINE_FEED) {
        TRANSLATION_BREAK.lastIndex = i;
        const match = TRANSLATION_BREAK.exec(run);
        if (match) {
          const k = this.#breaks++;
          const bytes = k < this.forms.breaks.length ? this.forms.breaks[k]! : place.newline;
          out += bytes;
          i += match[0].length;
          force = bytes.includes('\n') ? this.#lineOpening(run, i, k < this.forms.breaks.length ? k + 1 : -1) : -1;
          continue;
        }
        const runStart = i;
        while (i < run.length && (run.charCodeAt(i) === SPACE || run.charCodeAt(i) === TAB)) i++;
        if (i === runStart) i++;
        out += run.slice(runStart, i);
        continue;
      }
      const char = run[i]!;
      if (!isTracked(code, char)) {
        out += char;
        i++;
        continue;
      }
      const k = this.#counts.get(char) ?? 0;
      this.#counts.set(char, k + 1);
      const occurrences = this.forms.chars.get(char);
      const form = occurrences?.forms[k];
      const before = i === 0 ? EDGE : classOf(run.charCodeAt(i - 1), run[i - 1]!);
      const after = i === run.length - 1 ? EDGE : classOf(run.charCodeAt(i + 1), run[i + 1]!);
      let text: string;
      if (form !== undefined && form !== char) text = form;
      else if (form !== undefined && occurrences!.around[k] === 4 * before + after && i !== force) text = char;
      else if (i === force || !this.#safe(char, run, i, offset, before, after, at)) text = code < ASCII_END ? `\\${char}` : char;
      else text = char;
      out += text;
      i++;
    }
    return out;
  }

  /**
   * Whether a character the source does not hold in this context is literal here as it
   * is (markdown's rules, conservatively: a token next to it counts as anything).
   */
  #safe(char: string, run: string, i: number, offset: number, before: number, after: number, at: RunPlace): boolean {
    const next = run.charCodeAt(i + 1);
    switch (char) {
      case '\\':
        // Before punctuation it escapes, before a line ending it breaks the line.
        return after === OTHER || (after === WHITESPACE && next !== LINE_FEED && next !== CARRIAGE_RETURN);
      case '&':
        ENTITY.lastIndex = i;
        return !ENTITY.test(run);
      case '"':
      case "'":
      case '(':
      case ')':
        return !(this.place.titleClose === char || (this.place.titleClose === ')' && char === '('));
    }
    if (this.place.titleClose) return true;
    switch (char) {
      case '`':
        return false;
      case '*':
      case '~':
        return before === WHITESPACE && after === WHITESPACE;
      case '_':
        return (before === WHITESPACE && after === WHITESPACE) || (before === OTHER && after === OTHER);
      case '[':
        return offset + i > this.#lastClose && offset + i > this.#lastTokenStart;
      case ']':
        return offset + i < this.#firstOpen && offset + i < this.#firstMarkStart;
      case '<':
        // An HTML tag, comment, instruction or autolink starts with one of these.
        return !(after === EDGE || (next >= UPPER_A && next <= UPPER_Z) || (next >= LOWER_A && next <= LOWER_Z) || next === SLASH || next === EXCLAMATION || next === QUESTION);
      case '|':
        return !this.place.table;
      case '#':
        // A trailing run in a heading is its closing sequence.
        return !(this.place.heading && at.last && /^#*[ \t]*$/.test(run.slice(i)) && (before === WHITESPACE || (before === EDGE && offset === 0)));
      default:
        return true;
    }
  }

  /**
   * The index of the character to escape when the line starting at `from` in `run`
   * could open a block (heading, quote, list item, setext underline, thematic break),
   * unless source line `line` opened the same way; -1 for none.
   */
  #lineOpening(run: string, from: number, line: number): number {
    let i = from;
    while (i < run.length && (run.charCodeAt(i) === SPACE || run.charCodeAt(i) === TAB)) i++;
    let end = run.indexOf('\n', i);
    if (end === -1) end = run.length;
    const rest = run.slice(i, end);
    const opening = blockOpening(rest);
    if (!opening) return -1;
    if (line >= 0) {
      const head = this.forms.heads[line] ?? '';
      if (opening.whole ? head.trimEnd() === rest.trimEnd() : head.startsWith(rest.slice(0, opening.length))) return -1;
    }
    return i + opening.escape;
  }
}

/**
 * How a line (without its indentation) would open a block: the length of the opening,
 * which character to escape, and whether the whole line is the opening. Undefined for
 * text. The end of the text counts as a line end (a token may follow: conservative).
 */
function blockOpening(line: string): { length: number; escape: number; whole: boolean } | undefined {
  const heading = /^#{1,6}(?=[ \t]|$)/.exec(line);
  if (heading) return { length: heading[0].length, escape: 0, whole: false };
  if (/^(?:=+|-+)[ \t]*$/.test(line) || /^([-*_])(?:[ \t]*\1){2,}[ \t]*$/.test(line)) return { length: line.length, escape: 0, whole: true };
  if (/^(?:>|[-+*](?=[ \t]|$))/.test(line)) return { length: 1, escape: 0, whole: false };
  const ordered = /^(\d{1,9})[.)](?=[ \t]|$)/.exec(line);
  if (ordered) return { length: ordered[0].length, escape: ordered[1]!.length, whole: false };
  return undefined;
}

/**
 * The escaper of a place in markdown. Rendering a segment, it reads the source's forms
 * (SegmentSource); called without them (no source) every character counts as a model's own.
 */
export function markdownEscaper(place: MarkdownPlace): Escaper {
  const plain = (run: string, at: RunPlace) => new SegmentEscape(NO_FORMS, place, run).escape(run, at);
  return Object.assign(plain, {
    forSegment(layout: SegmentSource, translation: string): Escaper {
      const segment = new SegmentEscape(readForms(layout), place, translation);
      return (run, at) => segment.escape(run, at);
    },
  });
}
