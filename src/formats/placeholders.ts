/**
 * Finds the spans of a text that a translator must never change (CONTRACT §4): variables
 * in the common syntaxes, URLs, e-mail addresses, and literal token-like text. ICU
 * plural/select messages are not hidden whole: their skeleton (argument, keyword,
 * selectors, braces, `#`) becomes tokens and only the branch text stays translatable,
 * each branch a pair so a model may reorder branches but not mix skeleton into words
 * (decision in docs/formats.md).
 */
import { ATOM, CLOSE, newPairId, OPEN } from './template.js';
import type { DocumentBuilder } from './template.js';

export interface Span {
  readonly start: number;
  readonly end: number;
  readonly type: 'atom' | 'open' | 'close';
  /** Pair id for open/close spans (unique across the process). */
  readonly pair?: number;
}

export interface PlaceholderOptions {
  /** `:name` markers (Laravel style) are placeholders in JSON string values only. */
  readonly colonMarkers?: boolean;
}

const PRINTF = String.raw`%(?:\d+\$)?(?:\([A-Za-z_]\w*\))?[-+0#]?\d*(?:\.\d+)?(?:ll[du]|l[du]|[sdifuxXeEgGc@])(?![A-Za-z0-9])`;
const URL = String.raw`(?:https?|ftp):\/\/[^\s<>"'\`]+|(?<![\w.+-])www\.[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+[^\s<>"'\`]*`;
const EMAIL = String.raw`(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}`;
const BASE = [
  String.raw`<\/?g\d+>|<x\d+\/>`,
  String.raw`\{\{\{[^{}]*\}\}\}`,
  String.raw`\{\{[^{}]*\}\}`,
  String.raw`[$%]\{[^{}]*\}`,
  String.raw`\$t\([^()]*\)`,
  PRINTF,
  URL,
  EMAIL,
];
const COLON = String.raw`(?<![\w:/\\.]):[A-Za-z_][A-Za-z0-9_]*`;

const PATTERN = new RegExp(`${BASE.join('|')}|\\{`, 'g');
const PATTERN_WITH_COLON = new RegExp(`${BASE.join('|')}|${COLON}|\\{`, 'g');

/** Trailing punctuation belongs to the sentence, not the URL (unless it closes a paren in it). */
function trimUrl(url: string): string {
  let end = url.length;
  while (end > 0) {
    const c = url[end - 1]!;
    if ('.,;:!?\'"*_'.includes(c)) end--;
    else if (c === ')' || c === ']') {
      const open = c === ')' ? '(' : '[';
      const body = url.slice(0, end);
      if (body.split(open).length - 1 < body.split(c).length - 1) end--;
      else break;
    } else break;
  }
  return url.slice(0, end);
}

/** A span list as flat numbers, 4 per span: start, end, type (ATOM/OPEN/CLOSE), pair id. */
export class SpanList {
  length = 0;
  readonly data: number[] = [];
  add(start: number, end: number, type: number, pair: number): void {
    const data = this.data;
    const n = this.length;
    data[n] = start;
    data[n + 1] = end;
    data[n + 2] = type;
    data[n + 3] = pair;
    this.length = n + 4;
  }
}
const TYPE_NAMES = ['atom', 'open', 'close'] as const;

/** One list reused by every maskInto call (no allocation per run). */
const shared = new SpanList();

/**
 * Scans `text` for placeholders, returning spans in order. ICU messages nest, so `{`
 * is handled by a small recursive-descent reader rather than the regex.
 */
export function findPlaceholders(text: string, options: PlaceholderOptions = {}): Span[] {
  const list = new SpanList();
  scanPlaceholders(text, options, list);
  const spans: Span[] = [];
  const data = list.data;
  for (let k = 0; k < list.length; k += 4) {
    const type = TYPE_NAMES[data[k + 2]!]!;
    spans.push(type === 'atom' ? { start: data[k]!, end: data[k + 1]!, type } : { start: data[k]!, end: data[k + 1]!, type, pair: data[k + 3]! });
  }
  return spans;
}

/** The spans of `text` into `list` (emptied first). */
export function scanPlaceholders(text: string, options: PlaceholderOptions, list: SpanList): void {
  list.length = 0;
  rangeEnd = text.length;
  inRange = false;
  undecided = false;
  scan(text, 0, text.length, options.colonMarkers ? PATTERN_WITH_COLON : PATTERN, false, list, 0);
}

/**
 * The end of the text as the scan must see it: `text.length`, or the end of the range
 * `scanRange` reads in place. Nothing at or past it may decide a match.
 */
let rangeEnd = 0;
/** Scanning a range of a larger text (`scanRange`): no regex search, which could run past it. */
let inRange = false;
/** Set when a range scan met what only a scan of the sliced range can decide. */
let undecided = false;

const isAlphanumeric = (c: number): boolean => (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122);
/** A character some pattern's lookbehind tests for: `[\w.+%:/\\-]`. */
const isLookbehind = (c: number): boolean =>
  isAlphanumeric(c) || c === 95 /* _ */ || c === 46 /* . */ || c === 43 /* + */ || c === 37 /* % */ || c === 58 /* : */ || c === 47 /* / */ || c === 92 /* \ */ || c === 45; /* - */

/**
 * The spans of `text[from, to)`, as offsets into `text`, into `list` (emptied first), the
 * same as `scanPlaceholders(text.slice(from, to))` gives shifted by `from` — without the
 * slice. Reading a flat source in place is about twice as fast per character as reading
 * a slice of it (a sliced string is one more indirection per read). Returns false, with
 * `list` undefined, when the answer could differ or cost a search past `to`: a match that
 * would end past `to`, a candidate that needs a regex search (`:`, `@`, `%` or `www.`
 * before an `@`), or a neighbouring character a lookaround would see; the caller then
 * scans the slice.
 */
export function scanRange(text: string, from: number, to: number, options: PlaceholderOptions, list: SpanList): boolean {
  list.length = 0;
  // The neighbours a lookbehind (at `from`) or lookahead (`[A-Za-z0-9]`, at `to`) would see.
  if (from > 0 && isLookbehind(text.charCodeAt(from - 1))) return false;
  if (to < text.length && isAlphanumeric(text.charCodeAt(to))) return false;
  rangeEnd = to;
  inRange = true;
  undecided = false;
  scan(text, from, to, options.colonMarkers ? PATTERN_WITH_COLON : PATTERN, false, list, 0);
  inRange = false;
  return !undecided;
}

/** The character code at `i`, or -1 at or past the end of the text as the scan sees it. */
function codeAt(text: string, i: number): number {
  return i < rangeEnd ? text.charCodeAt(i) : -1;
}

function hasCode(text: string, code: number, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === code) return true;
  return false;
}

/** `[{}%$<:@]|www\.` somewhere in `text[from, to)`, without a regex or a slice. */
export function mayHoldPlaceholder(text: string, from: number, to: number): boolean {
  return candidateIn(text, from, to, to) !== -1;
}

/** By char code below 128: 1 for `{}%$<:@`, 2 for `w` (a candidate where `www.` starts). */
const CANDIDATE_CHAR = new Uint8Array(128);
for (const c of '{}%$<:@') CANDIDATE_CHAR[c.charCodeAt(0)] = 1;
CANDIDATE_CHAR[119 /* w */] = 2;

/** Where `[{}%$<:@]|www\.` first starts in `text[from, to)` (`www.` ending before `end`), or -1. */
function candidateIn(text: string, from: number, to: number, end: number): number {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 128 && CANDIDATE_CHAR[c] !== 0) {
      if (CANDIDATE_CHAR[c] === 1) return i;
      if (i + 3 < end && text.charCodeAt(i + 1) === 119 && text.charCodeAt(i + 2) === 119 && text.charCodeAt(i + 3) === 46) return i;
    }
  }
  return -1;
}

const CANDIDATE = /[{}%$<:@]|www\./g;

/**
 * The first index in `[from, to)` of a character every placeholder holds (`{}%$<:@`, or
 * the `w` of `www.`), or -1. Every alternative of the pattern starts with one, or (a URL
 * scheme's `:`, an e-mail's `@`, the `.` of `www.`) reaches one through characters that
 * are not `{`/`}`; so no match starts before it but those, and none at all without one,
 * in a whole text or in an ICU branch body. The regex search stops at `to` at the
 * latest: that is the end of the text or a branch's closing `}`.
 */
function nextCandidate(text: string, from: number, to: number): number {
  // By char code: a few characters first (a regex call costs about as much as 16 of
  // them), all of them in a range of a larger text (a regex search could run far past `to`).
  const near = inRange ? to : Math.min(to, from + 16);
  const found = candidateIn(text, from, near, rangeEnd);
  if (found !== -1 || near === to) return found;
  CANDIDATE.lastIndex = near;
  if (!CANDIDATE.test(text)) return -1;
  const end = CANDIDATE.lastIndex;
  // `www.` is the only alternative longer than one character (and ends with `.`)
  const at = text.charCodeAt(end - 1) === 46 /* . */ ? end - 4 : end - 1;
  return at < to ? at : -1;
}

/** Each pattern anchored at one position (sticky), for testing a candidate without a match array. */
const STICKY = new Map([PATTERN, PATTERN_WITH_COLON].map((pattern) => [pattern, new RegExp(pattern.source, 'y')]));

/**
 * The placeholders of `text[from, to)` into `spans`. Matches are the pattern's, leftmost
 * first; a `{` is an ICU argument if `readIcu` can read one.
 *
 * No match starts before the first candidate character (`nextCandidate`), except a URL
 * whose scheme's `:` is that candidate and an e-mail address whose local part holds it
 * (`%`, `w`) or that is it (`@`). So at a candidate `{ } < $`, and at `% w` when no `@`
 * follows, the leftmost match is the one at the candidate if any: a sticky test there
 * (a lone `{` can only be the last alternative) instead of a regex search and its match
 * array. Other candidates search with the regex as before.
 */
function scan(text: string, from: number, to: number, pattern: RegExp, inPlural: boolean, spans: SpanList, depth: number): void {
  let hashFrom = from;
  let noAtSign: boolean | undefined;
  for (let at = from; ; ) {
    const candidate = nextCandidate(text, at, to);
    if (candidate === -1) break;
    const c = text.charCodeAt(candidate);
    let start: number;
    let matchEnd: number;
    if (c === 123 /* { */ && codeAt(text, candidate + 1) !== 123) {
      start = candidate;
      matchEnd = candidate + 1;
    } else if (
      c === 123 /* { */ ||
      c === 125 /* } */ ||
      c === 60 /* < */ ||
      c === 36 /* $ */ ||
      ((c === 37 /* % */ || c === 119) /* w */ && (noAtSign ??= !hasCode(text, 64 /* @ */, from, rangeEnd)))
    ) {
      const sticky = STICKY.get(pattern)!;
      sticky.lastIndex = candidate;
      if (!sticky.test(text)) {
        at = candidate + 1;
        continue;
      }
      start = candidate;
      matchEnd = sticky.lastIndex;
      if (matchEnd > rangeEnd) {
        undecided = true;
        return;
      }
    } else {
      if (inRange) {
        undecided = true;
        return;
      }
      pattern.lastIndex = at;
      const match = pattern.exec(text);
      if (!match || match.index >= to) break;
      start = match.index;
      matchEnd = start + match[0].length;
    }
    at = matchEnd;
    if (matchEnd - start === 1 && text.charCodeAt(start) === 123 /* { */) {
      const end = readIcu(text, start, to, pattern, spans, inPlural ? hashFrom : -1, depth);
      if (undecided) return;
      if (end < 0) continue;
      hashFrom = at = end;
      continue;
    }
    let end = matchEnd;
    const first = text.charCodeAt(start);
    if (end - start > 3 && (first === 104 /* h */ || first === 102 /* f */ || first === 119) /* w */) {
      const token = text.slice(start, end);
      if (URL_START.test(token)) end = start + trimUrl(token).length;
    }
    if (end > to) end = to;
    if (end === start) continue;
    if (inPlural) pushHashes(text, hashFrom, start, spans);
    hashFrom = at = end;
    spans.add(start, end, ATOM, 0);
  }
  if (inPlural) pushHashes(text, hashFrom, to, spans);
}

const URL_START = /^(?:https?|ftp):|^www\./;

/** `#` inside a plural branch is the number: an atom. */
function pushHashes(text: string, from: number, upTo: number, spans: SpanList): void {
  for (let i = from; i < upTo; i++) if (text.charCodeAt(i) === 35 /* # */) spans.add(i, i + 1, ATOM, 0);
}

const SPACE = /\s/;
/** `\s` for one UTF-16 unit: ASCII by char code, anything else asks the regex. */
function isSpaceAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return SPACE.test(text[i]!);
}

function skipSpace(text: string, i: number, to: number): number {
  while (i < to && isSpaceAt(text, i)) i++;
  return i;
}

const IDENT = /[\p{L}\p{N}_$.-]/u;
function readIdent(text: string, i: number, to: number): number {
  for (; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      // a-z A-Z 0-9 _ $ . -
      if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36 || c === 46 || c === 45)) break;
    } else if (!IDENT.test(text[i]!)) break;
  }
  return i;
}

/** The index just past the `}` that balances the `{` at `open`, or -1. */
function matchBrace(text: string, open: number, to: number): number {
  let depth = 0;
  for (let i = open; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 123) depth++;
    else if (c === 125 && --depth === 0) return i + 1;
  }
  return -1;
}

/** The ICU argument type at `text[from, to)`: 0 none of ours, 1 simple, 2 plural-like, 3 select. */
function argumentType(text: string, from: number, to: number): number {
  switch (to - from) {
    case 4:
      return text.startsWith('date', from) || text.startsWith('time', from) ? 1 : 0;
    case 6:
      return text.startsWith('number', from) ? 1 : text.startsWith('plural', from) ? 2 : text.startsWith('select', from) ? 3 : 0;
    case 7:
      return text.startsWith('ordinal', from) ? 1 : 0;
    case 8:
      return text.startsWith('duration', from) || text.startsWith('spellout', from) ? 1 : 0;
    case 13:
      return text.startsWith('selectordinal', from) ? 2 : 0;
    default:
      return 0;
  }
}

/**
 * Branch positions (selector start, body start, body end) of the ICU messages being
 * read; nested reads stack above. `branchTop` is its used length (shrinking the array
 * itself would free its storage, and the next message would allocate it again).
 */
const branchStack: number[] = [];
let branchTop = 0;

/**
 * Reads an ICU argument at `start` (a `{`). Simple arguments become one atom; plural
 * and select messages become header atom + one pair per branch + closing atom, with
 * the branch bodies scanned recursively. Returns the end index, or -1 if not ICU.
 * Inside a plural branch (`hashFrom` ≥ 0), the `#`s before this argument come first.
 */
function readIcu(text: string, start: number, to: number, pattern: RegExp, spans: SpanList, hashFrom: number, depth: number): number {
  let i = skipSpace(text, start + 1, to);
  const nameEnd = readIdent(text, i, to);
  if (nameEnd === i) return -1;
  i = skipSpace(text, nameEnd, to);
  const c = codeAt(text, i);
  if (c === 125 /* } */) {
    if (hashFrom >= 0) pushHashes(text, hashFrom, start, spans);
    spans.add(start, i + 1, ATOM, 0);
    return i + 1;
  }
  if (c !== 44 /* , */) return -1;
  i = skipSpace(text, i + 1, to);
  const typeEnd = readIdent(text, i, to);
  const type = argumentType(text, i, typeEnd);
  i = skipSpace(text, typeEnd, to);
  if (type === 1) {
    const end = matchBrace(text, start, to);
    if (end < 0) return -1;
    if (hashFrom >= 0) pushHashes(text, hashFrom, start, spans);
    spans.add(start, end, ATOM, 0);
    return end;
  }
  if (type === 0 || codeAt(text, i) !== 44 /* , */) return -1;
  i = skipSpace(text, i + 1, to);
  if (i + 7 <= rangeEnd && text.startsWith('offset:', i)) {
    i = skipSpace(text, i + 7, to);
    while (i < to && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
    i = skipSpace(text, i, to);
  }
  // Branches: selector ws `{` message `}` ws, repeated, then the closing `}`.
  const headerEnd = i;
  const base = branchTop;
  while (i < to && text.charCodeAt(i) !== 125 /* } */) {
    const selStart = i;
    const selEnd = text.charCodeAt(i) === 61 /* = */ ? readIdent(text, i + 1, to) : readIdent(text, i, to);
    const braceAt = selEnd === selStart ? -1 : skipSpace(text, selEnd, to);
    const close = braceAt >= 0 && codeAt(text, braceAt) === 123 /* { */ ? matchBrace(text, braceAt, to) : -1;
    if (close < 0) {
      branchTop = base;
      return -1;
    }
    branchStack[branchTop] = selStart;
    branchStack[branchTop + 1] = braceAt + 1;
    branchStack[branchTop + 2] = close - 1;
    branchTop += 3;
    i = skipSpace(text, close, to);
  }
  const top = branchTop;
  if (codeAt(text, i) !== 125 /* } */ || top === base) {
    branchTop = base;
    return -1;
  }
  const end = i + 1;
  const plural = type !== 3;
  if (hashFrom >= 0) pushHashes(text, hashFrom, start, spans);
  spans.add(start, headerEnd, ATOM, 0);
  for (let b = base; b < top; b += 3) {
    const pair = newPairId();
    const nextStart = b + 3 < top ? branchStack[b + 3]! : i;
    const open = branchStack[b + 1]!;
    const close = branchStack[b + 2]!;
    spans.add(branchStack[b]!, open, OPEN, pair);
    scan(text, open, close, pattern, plural, spans, depth + 1);
    if (undecided) {
      branchTop = base;
      return -1;
    }
    spans.add(close, nextStart, CLOSE, pair);
  }
  branchTop = base;
  spans.add(i, end, ATOM, 0);
  return end;
}

/**
 * A text run straight into a segment being built (no part objects): the text between
 * placeholders goes in as is (no decoding). A placeholder's bytes are its source range
 * `offset + i` when `offset` ≥ 0, except that with `literal` given, a placeholder
 * holding a UTF-16 surrogate gets `literal(spanText)` instead; with `offset` -1, every
 * placeholder gets `literal(spanText)`.
 */
export function maskInto(
  out: DocumentBuilder,
  raw: string,
  offset: number,
  literal?: (text: string) => string,
  options: PlaceholderOptions = {},
): void {
  // Nothing called from here scans placeholders again, so one shared list serves.
  const list = shared;
  scanPlaceholders(raw, options, list);
  const data = list.data;
  const count = list.length;
  let last = 0;
  for (let k = 0; k < count; k += 4) {
    const start = data[k]!;
    const end = data[k + 1]!;
    if (start > last) out.text(raw.slice(last, start));
    if (offset >= 0 && (literal === undefined || !holdsSurrogate(raw, start, end))) out.token(data[k + 2]!, offset + start, offset + end, data[k + 3]!);
    else out.literalToken(data[k + 2]!, literal!(raw.slice(start, end)), data[k + 3]!);
    last = end;
  }
  if (count === 0) {
    if (raw.length > 0) out.text(raw);
  } else if (last < raw.length) out.text(raw.slice(last));
}

/**
 * `maskInto(out, source.slice(from, to), from, literal, options)`, reading the range in
 * place (`scanRange`); `raw`, when given, is that slice, already made by the caller.
 */
export function maskRange(
  out: DocumentBuilder,
  source: string,
  from: number,
  to: number,
  raw?: string,
  literal?: (text: string) => string,
  options: PlaceholderOptions = {},
): void {
  const list = shared;
  if (!scanRange(source, from, to, options, list)) {
    maskInto(out, raw ?? source.slice(from, to), from, literal, options);
    return;
  }
  const data = list.data;
  const count = list.length;
  if (count === 0) {
    if (to > from) out.text(raw ?? source.slice(from, to));
    return;
  }
  let last = from;
  for (let k = 0; k < count; k += 4) {
    const start = data[k]!;
    const end = data[k + 1]!;
    if (start > last) out.text(source.slice(last, start));
    if (literal === undefined || !holdsSurrogate(source, start, end)) out.token(data[k + 2]!, start, end, data[k + 3]!);
    else out.literalToken(data[k + 2]!, literal(source.slice(start, end)), data[k + 3]!);
    last = end;
  }
  if (last < to) out.text(source.slice(last, to));
}

function holdsSurrogate(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if ((text.charCodeAt(i) & 0xf800) === 0xd800) return true;
  return false;
}
