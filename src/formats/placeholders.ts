/**
 * Finds the spans of a text that a translator must never change (CONTRACT §4): variables
 * in the common syntaxes, URLs, e-mail addresses, and literal token-like text. ICU
 * plural/select messages are not hidden whole: their skeleton (argument, keyword,
 * selectors, braces, `#`) becomes tokens and only the branch text stays translatable,
 * each branch a pair so a model may reorder branches but not mix skeleton into words
 * (decision in docs/formats.md).
 */
import { newPairId } from './template.js';
import type { Part, TokenBytes } from './template.js';

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

const IDENT = /[\p{L}\p{N}_$.-]/u;
const SIMPLE_TYPES = new Set(['number', 'date', 'time', 'spellout', 'ordinal', 'duration']);
const COMPLEX_TYPES = new Set(['plural', 'select', 'selectordinal']);

/**
 * Scans `text` for placeholders, returning spans in order. ICU messages nest, so `{`
 * is handled by a small recursive-descent reader rather than the regex.
 */
export function findPlaceholders(text: string, options: PlaceholderOptions = {}): Span[] {
  const spans: Span[] = [];
  // Every placeholder holds one of these characters (`://` a colon, an e-mail `@`, a
  // token `<`, `www.` a `w`): most text runs are skipped without running the big pattern.
  if (!MAYBE.test(text)) return spans;
  scan(text, 0, text.length, options.colonMarkers ? PATTERN_WITH_COLON : PATTERN, false, spans);
  return spans;
}

const MAYBE = /[{}%$<:@]|www\./;

/** One compiled copy of each pattern per ICU nesting depth (compiling per call was the hot spot). */
const copies = new Map<RegExp, RegExp[]>();
function patternAt(pattern: RegExp, depth: number): RegExp {
  let list = copies.get(pattern);
  if (!list) copies.set(pattern, (list = []));
  return (list[depth] ??= new RegExp(pattern.source, 'g'));
}

function scan(text: string, from: number, to: number, pattern: RegExp, inPlural: boolean, spans: Span[], depth = 0): void {
  const re = patternAt(pattern, depth);
  re.lastIndex = from;
  let hashFrom = from;
  for (let match = re.exec(text); match && match.index < to; match = re.exec(text)) {
    const start = match.index;
    let token = match[0];
    if (token === '{') {
      const end = readIcu(text, start, to, pattern, spans, inPlural ? hashFrom : -1, depth);
      if (end < 0) continue;
      hashFrom = end;
      re.lastIndex = end;
      continue;
    }
    if (token.length > 3 && (token.charCodeAt(0) === 104 || token.charCodeAt(0) === 102 || token.charCodeAt(0) === 119) && URL_START.test(token)) {
      token = trimUrl(token);
    }
    if (start + token.length > to) token = token.slice(0, to - start);
    if (token.length === 0) continue;
    if (inPlural) pushHashes(text, hashFrom, start, spans);
    hashFrom = start + token.length;
    spans.push({ start, end: start + token.length, type: 'atom' });
    re.lastIndex = start + token.length;
  }
  if (inPlural) pushHashes(text, hashFrom, to, spans);
}

const URL_START = /^(?:https?|ftp):|^www\./;

/** `#` inside a plural branch is the number: an atom. */
function pushHashes(text: string, from: number, upTo: number, spans: Span[]): void {
  for (let i = text.indexOf('#', from); i !== -1 && i < upTo; i = text.indexOf('#', i + 1)) {
    spans.push({ start: i, end: i + 1, type: 'atom' });
  }
}

const SPACE = /\s/;
function skipSpace(text: string, i: number, to: number): number {
  while (i < to && SPACE.test(text[i]!)) i++;
  return i;
}

function readIdent(text: string, i: number, to: number): number {
  while (i < to && IDENT.test(text[i]!)) i++;
  return i;
}

/** The index just past the `}` that balances the `{` at `open`, or -1. */
function matchBrace(text: string, open: number, to: number): number {
  let depth = 0;
  for (let i = open; i < to; i++) {
    const c = text[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
  }
  return -1;
}

/**
 * Reads an ICU argument at `start` (a `{`). Simple arguments become one atom; plural
 * and select messages become header atom + one pair per branch + closing atom, with
 * the branch bodies scanned recursively. Returns the end index, or -1 if not ICU.
 */
function readIcu(
  text: string,
  start: number,
  to: number,
  pattern: RegExp,
  spans: Span[],
  hashFrom: number,
  depth: number,
): number {
  /** Inside a plural branch (`hashFrom` ≥ 0), the `#`s before this argument come first. */
  const beforePush = () => {
    if (hashFrom >= 0) pushHashes(text, hashFrom, start, spans);
  };
  let i = skipSpace(text, start + 1, to);
  const nameEnd = readIdent(text, i, to);
  if (nameEnd === i) return -1;
  i = skipSpace(text, nameEnd, to);
  if (text[i] === '}') {
    beforePush();
    spans.push({ start, end: i + 1, type: 'atom' });
    return i + 1;
  }
  if (text[i] !== ',') return -1;
  i = skipSpace(text, i + 1, to);
  const typeEnd = readIdent(text, i, to);
  const type = text.slice(i, typeEnd);
  i = skipSpace(text, typeEnd, to);
  if (SIMPLE_TYPES.has(type)) {
    const end = matchBrace(text, start, to);
    if (end < 0) return -1;
    beforePush();
    spans.push({ start, end, type: 'atom' });
    return end;
  }
  if (!COMPLEX_TYPES.has(type) || text[i] !== ',') return -1;
  i = skipSpace(text, i + 1, to);
  if (text.startsWith('offset:', i)) {
    i = skipSpace(text, i + 7, to);
    while (i < to && /\d/.test(text[i]!)) i++;
    i = skipSpace(text, i, to);
  }
  // Branches: selector ws `{` message `}` ws, repeated, then the closing `}`.
  const inner: Span[] = [];
  const headerEnd = i;
  const branches: { selStart: number; open: number; close: number }[] = [];
  while (i < to && text[i] !== '}') {
    const selStart = i;
    const selEnd = text[i] === '=' ? readIdent(text, i + 1, to) : readIdent(text, i, to);
    if (selEnd === selStart) return -1;
    const braceAt = skipSpace(text, selEnd, to);
    if (text[braceAt] !== '{') return -1;
    const close = matchBrace(text, braceAt, to);
    if (close < 0) return -1;
    branches.push({ selStart, open: braceAt + 1, close: close - 1 });
    i = skipSpace(text, close, to);
  }
  if (text[i] !== '}' || branches.length === 0) return -1;
  const end = i + 1;
  const plural = type !== 'select';
  inner.push({ start, end: headerEnd, type: 'atom' });
  for (const [index, branch] of branches.entries()) {
    const pair = newPairId();
    const nextStart = branches[index + 1]?.selStart ?? i;
    inner.push({ start: branch.selStart, end: branch.open, type: 'open', pair });
    scan(text, branch.open, branch.close, pattern, plural, inner, depth + 1);
    inner.push({ start: branch.close, end: nextStart, type: 'close', pair });
  }
  inner.push({ start: i, end, type: 'atom' });
  beforePush();
  spans.push(...inner);
  return end;
}

/**
 * Turns a run of text into parts: placeholder spans become tokens, the text between
 * them is decoded by `decode`. With `offset` the token bytes are source ranges (the run
 * is raw source starting there); without it they are `literal(spanText)`.
 */
export function maskRun(
  raw: string,
  decode: (text: string) => string,
  where: { readonly offset: number } | { readonly literal: (text: string) => string },
  options: PlaceholderOptions = {},
  parts: Part[] = [],
): Part[] {
  const spans = findPlaceholders(raw, options);
  if (spans.length === 0) {
    if (raw.length > 0) parts.push({ type: 'text', value: decode(raw) });
    return parts;
  }
  const offset = 'offset' in where ? where.offset : -1;
  const literal = 'offset' in where ? undefined : where.literal;
  let last = 0;
  for (const span of spans) {
    if (span.start > last) parts.push({ type: 'text', value: decode(raw.slice(last, span.start)) });
    const bytes: TokenBytes = literal ? { literal: literal(raw.slice(span.start, span.end)) } : { start: offset + span.start, end: offset + span.end };
    if (span.type === 'atom') parts.push({ type: 'atom', bytes });
    else parts.push({ type: span.type, bytes, pair: span.pair! });
    last = span.end;
  }
  if (last < raw.length) parts.push({ type: 'text', value: decode(raw.slice(last)) });
  return parts;
}
