/**
 * Finds the spans of a text that a translator must never change (docs/contract.md §4): variables
 * in the common syntaxes, URLs, e-mail addresses, and literal token-like text. ICU
 * plural/select messages are not hidden whole: their skeleton (argument, keyword,
 * selectors, braces, `#`) becomes tokens and only the branch text stays translatable,
 * each branch a pair so a model may reorder branches but not mix skeleton into words
 * (decision in docs/formats.md).
 */
import { DEFAULT_DOCUMENT_LIMITS, tooComplex } from './limits.js';
import type { DocumentLimits } from './limits.js';
import { ATOM, CLOSE, newPairId, OPEN } from './document.js';
import * as charCodes from './char-codes.js';
// Module-local constants, not imported bindings, for the inner loops (why: char-codes.ts).
const { AMPERSAND, ASCII_END, AT, BACKSLASH, CASE_BIT, COLON, COMMA, DASH, DIGIT_0, DIGIT_9, DOLLAR, DOT, EQUALS, GREATER_THAN, HASH, LEFT_BRACE, LESS_THAN, LOWER_A, LOWER_F, LOWER_H, LOWER_O, LOWER_W, LOWER_Z, PERCENT, PLUS, RIGHT_BRACE, SLASH, SPACE, UNDERSCORE } = charCodes;

export interface PlaceholderOptions {
  /** `:name` markers (Laravel style) are placeholders in JSON string values only. */
  readonly colonMarkers?: boolean;
  /**
   * Tags in the text (`<b>`, `</b>`, `<br/>`, i18n libraries' `<0>…</0>`, `<1/>`) are
   * markup, kept as they are: an open and close tag of the same name, properly nested,
   * become a pair, any other tag an atom (JSON string values; html and markdown read
   * their markup themselves).
   */
  readonly markup?: boolean;
  /**
   * Blobs (64+ characters of base64 or hex with a digit) are atoms, found before the
   * scan (plain text and JSON string values; html and markdown have no such runs in text).
   */
  readonly blobs?: boolean;
  /** `maxPlaceholderDepth` bounds ICU messages nested in one another (DEFAULT_DOCUMENT_LIMITS when omitted). */
  readonly limits?: DocumentLimits;
}

// Characters the readers below name.

const PRINTF = String.raw`%(?:\d+\$)?(?:\([A-Za-z_]\w*\))?[-+0#]?\d*(?:\.\d+)?(?:ll[du]|l[du]|[sdifuxXeEgGc@])(?![A-Za-z0-9])`;
const URL = String.raw`(?:https?|ftp):\/\/[^\s<>"'\`]+|(?<![\w.+-])www\.[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+[^\s<>"'\`]*`;
const EMAIL = String.raw`(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}`;
/**
 * A start, end or empty tag: a name right after `<` (so `a < b` is no tag), then
 * attributes. Nothing in it, quoted or not, may be `<` or `>`: a try at one `<` reads no
 * further than the next, so a text full of them stays linear.
 */
const TAG = String.raw`<\/?[A-Za-z0-9][\w.:-]*(?:\s(?:[^<>"']|"[^"<>]*"|'[^'<>]*')*)?\/?>`;
/**
 * A character reference (`&gt;`, `&#39;`, `&#x27;`, `&nbsp;`): markup like the tags
 * around it, which a translation must keep as it is or the page shows `&ĝţ;`.
 */
const REFERENCE = String.raw`&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});`;
/**
 * A host name in angle brackets, with a port or a path (`<www.example.org>`,
 * `<docs.example.org/guide>`): an address written the way people write one, though
 * without a scheme CommonMark does not make it an autolink. Its last label starts with a
 * letter, so `<1.5>` is no host; `<Enter>` has no dot.
 */
const BRACKETED_ADDRESS = String.raw`<(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z][A-Za-z0-9-]{1,62}(?::[0-9]{1,5})?(?:[/?#][^\s<>]*)?>`;

/** One placeholder syntax: its pattern, and the characters every match of it holds (see `nextCandidate`). */
interface Syntax {
  readonly pattern: string;
  /** A match holds one of these: the first it may start with, or (URL, e-mail) one it reaches. */
  readonly holds: string;
  /** Only with this option. */
  readonly option?: 'colonMarkers' | 'markup';
}

/**
 * Every placeholder syntax, in the order the pattern tries them at one position. Adding a
 * syntax is adding a row here: the patterns and the candidate characters are made from
 * this table. (`w` stands for `www.`; `}` is kept a candidate as it always was.)
 */
const SYNTAXES: readonly Syntax[] = [
  { pattern: String.raw`<\/?g\d+>|<x\d+\/>`, holds: '<' }, // literal segment marks in the source
  { pattern: String.raw`\{\{\{[^{}]*\}\}\}`, holds: '{' },
  { pattern: String.raw`\{\{[^{}]*\}\}`, holds: '{' },
  { pattern: String.raw`[$%]\{[^{}]*\}`, holds: '$%' },
  { pattern: String.raw`\$t\([^()]*\)`, holds: '$' },
  { pattern: PRINTF, holds: '%' },
  { pattern: URL, holds: ':w' },
  { pattern: EMAIL, holds: '@' },
  { pattern: BRACKETED_ADDRESS, holds: '<' },
  { pattern: String.raw`(?<![\w:/\\.]):[A-Za-z_][A-Za-z0-9_]*`, holds: ':', option: 'colonMarkers' },
  { pattern: TAG, holds: '<', option: 'markup' },
  { pattern: REFERENCE, holds: '&', option: 'markup' },
  // Last: a `{` that no syntax above matched may start an ICU argument (`readIcu`).
  { pattern: String.raw`\{`, holds: '{}' },
];

/** The syntaxes for each combination of options: index 1 for colon markers, 2 for markup. */
const SYNTAXES_BY_OPTIONS = [[], ['colonMarkers'], ['markup'], ['colonMarkers', 'markup']].map((options) =>
  SYNTAXES.filter((syntax) => syntax.option === undefined || options.includes(syntax.option)),
);
const PATTERNS = SYNTAXES_BY_OPTIONS.map((syntaxes) => new RegExp(syntaxes.map((syntax) => syntax.pattern).join('|'), 'g'));
/** Each pattern anchored at one position (sticky), for testing a candidate without a match array. */
const STICKY_PATTERNS = PATTERNS.map((pattern) => new RegExp(pattern.source, 'y'));
const patternIndex = (options: PlaceholderOptions): number => (options.colonMarkers ? 1 : 0) + (options.markup ? 2 : 0);
/**
 * The characters some syntax of each combination of options holds, `w` (for `www.`)
 * apart: `&` only where references are markup, so html's and markdown's text runs full
 * of `&amp;` keep the fast path of a run without a candidate.
 */
const CANDIDATE_CHARS = SYNTAXES_BY_OPTIONS.map((syntaxes) => [...new Set(syntaxes.flatMap((syntax) => [...syntax.holds]))].filter((c) => c !== 'w').join(''));

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
  /**
   * Scratch of the scan filling the list: where each `{` of its text is closed (see
   * `closeOf`), per character from `closesFrom`: 1 + the index of its `}` minus
   * `closesFrom`, 0 when unclosed. Null outside a scan.
   */
  closes: Int32Array | null = null;
  closesFrom = 0;
  /** Atoms starting with `<` (tags, literal tokens): only then has `pairTags` work to do. */
  tags = 0;
  /** Empties the list; storage beyond what ordinary texts need is let go (a reused list must not keep a hostile text's size). */
  clear(): void {
    this.length = 0;
    this.closes = null;
    this.tags = 0;
    if (this.data.length > KEPT_STORAGE) this.data.length = 0;
  }
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
/** Numbers a reused array (a SpanList, the branch stack) keeps between texts. */
const KEPT_STORAGE = 4096;

const isAlphanumeric = (c: number): boolean => (c >= DIGIT_0 && c <= DIGIT_9) || ((c | CASE_BIT) >= LOWER_A && (c | CASE_BIT) <= LOWER_Z);
/** A character some pattern's lookbehind tests for: `[\w.+%:/\\-]`. */
const isLookbehind = (c: number): boolean =>
  isAlphanumeric(c) || c === UNDERSCORE || c === DOT || c === PLUS || c === PERCENT || c === COLON || c === SLASH || c === BACKSLASH || c === DASH; /* - */


/** The character code at `i`, or -1 at or past the end of the text as the scan sees it. */
function codeAt(state: ScanState, text: string, i: number): number {
  return i < state.rangeEnd ? text.charCodeAt(i) : -1;
}

function hasCode(text: string, code: number, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === code) return true;
  return false;
}

/**
 * Per combination of options, by char code below 128: 1 for a character of its
 * CANDIDATE_CHARS (`{}%$<:@`, and `&` with markup), 2 for `w` (a candidate where `www.` starts).
 */
const CANDIDATE_TABLES = CANDIDATE_CHARS.map((chars) => {
  const table = new Uint8Array(128);
  for (const c of chars) table[c.charCodeAt(0)] = 1;
  table[LOWER_W] = 2;
  return table;
});

/** Where a candidate of `table` first starts in `text[from, to)` (`www.` ending before `end`), or -1. */
function candidateIn(text: string, from: number, to: number, end: number, table: Uint8Array): number {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < ASCII_END && table[c] !== 0) {
      if (table[c] === 1) return i;
      if (startsWww(text, i, end)) return i;
    }
  }
  return -1;
}

/** Whether the `w` at `i` starts `www.` ending before `end`. */
function startsWww(text: string, i: number, end: number): boolean {
  return i + 3 < end && text.charCodeAt(i + 1) === LOWER_W && text.charCodeAt(i + 2) === LOWER_W && text.charCodeAt(i + 3) === DOT;
}

const CANDIDATE_SEARCHES = CANDIDATE_CHARS.map((chars) => new RegExp(`[${chars.replace(/[\]\\^-]/g, '\\$&')}]|www\\.`, 'g'));

/**
 * The first index in `[from, to)` of a character every placeholder holds (`{}%$<:@`, `&` with markup, or
 * the `w` of `www.`), or -1. Every alternative of the pattern starts with one, or (a URL
 * scheme's `:`, an e-mail's `@`, the `.` of `www.`) reaches one through characters that
 * are not `{`/`}`; so no match starts before it but those, and none at all without one,
 * in a whole text or in an ICU branch body. The regex search stops at `to` at the
 * latest: that is the end of the text or a branch's closing `}`.
 */
function nextCandidate(state: ScanState, text: string, from: number, to: number): number {
  // By char code: a few characters first (a regex call costs about as much as 16 of
  // them), all of them in a range of a larger text (a regex search could run far past `to`).
  const near = state.inRange ? to : Math.min(to, from + 16);
  const found = candidateIn(text, from, near, state.rangeEnd, state.candidates);
  if (found !== -1 || near === to) return found;
  const search = state.candidateSearch;
  search.lastIndex = near;
  if (!search.test(text)) return -1;
  const end = search.lastIndex;
  // `www.` is the only alternative longer than one character (and ends with `.`)
  const at = text.charCodeAt(end - 1) === DOT ? end - 4 : end - 1;
  return at < to ? at : -1;
}

/**
 * Where `PlaceholderScanner.mask` puts a text run: text between placeholders, and each
 * placeholder as a token (the DocumentBuilder, or a SegmentSink such as DraftCollector).
 */
export interface MaskSink {
  /** Text as a reader sees it. */
  text(value: string): void;
  /** A segment mark whose bytes are `source[start, end)`: ATOM, or OPEN/CLOSE linked by `pair`. */
  mark(kind: number, start: number, end: number, pair: number): void;
  /** A segment mark whose bytes are given (a placeholder that is not a source range; only with `TextRun.literal`). */
  literalMark?(kind: number, bytes: string, pair: number): void;
}

/** How `mask` gives a run to its sink. Adapters keep one constant per kind of run (no object per call). */
export interface TextRun {
  /** The text between placeholders as a reader sees it (html references decoded, …); as it is when omitted. */
  readonly decode?: (raw: string) => string;
  /**
   * Whether the masked text is the document's source, so that a placeholder's bytes are
   * its source range. When false (a decoded copy, as a JSON string value with escapes)
   * every placeholder's bytes are `literal(its text)`.
   */
  readonly inSource: boolean;
  /**
   * Bytes for a placeholder that cannot be copied from the source: with `inSource`, one
   * holding a UTF-16 surrogate half (JSON writes those as escapes); without, every one.
   */
  readonly literal?: (text: string) => string;
}

/** A run of the source, text as it is: plain text, JSON string values without escapes. */
export const SOURCE_RUN: TextRun = { inSource: true };

/**
 * The scratch of one scan (it used to be module-level variables): one per scanner, so two
 * documents read at once (in two workers, or one inside another's callback) cannot meet.
 */
class ScanState {
  /**
   * The end of the text as the scan must see it: `text.length`, or the end of the range
   * `scanRange` reads in place. Nothing at or past it may decide a match.
   */
  rangeEnd = 0;
  /** Scanning a range of a larger text (`scanRange`): no regex search, which could run past it. */
  inRange = false;
  /** Set when a range scan met what only a scan of the sliced range can decide. */
  undecided = false;
  /**
   * Branch positions of the ICU messages being read, `BRANCH_SLOTS` per branch: selector
   * start, body start, body end, and the stretch of the body to read for `#`s (from its
   * first `#` to just past its last), or -1 and 0 for a body that needs a scan. Nested
   * reads stack above. `branchTop` is its used length (shrinking the array itself would
   * free its storage, and the next message would allocate it again).
   */
  readonly branchStack: number[] = [];
  branchTop = 0;

  constructor(
    /** The pattern for the scanner's options, and its sticky twin (their `lastIndex` is set before every use). */
    readonly pattern: RegExp,
    readonly sticky: RegExp,
    /** The candidate characters of the scanner's options: a table by char code, and a search for them. */
    readonly candidates: Uint8Array,
    readonly candidateSearch: RegExp,
    readonly maxDepth: number,
  ) {}

  /** Before a scan: a reader that threw document_too_complex left `branchTop` where it was, and a hostile text may have grown the stack. */
  start(rangeEnd: number, inRange: boolean): void {
    this.rangeEnd = rangeEnd;
    this.inRange = inRange;
    this.undecided = false;
    this.branchTop = 0;
    if (this.branchStack.length > KEPT_STORAGE) this.branchStack.length = 0;
  }
}

/**
 * The placeholders of one document: an adapter makes one per document it reads (a
 * markdown document hands its own to the HTML inside it) and masks every text run with
 * `mask`. It holds its options and its scratch (the scan state, a span list), none of it
 * shared with another document. Adding a placeholder syntax means adding a row to
 * SYNTAXES; nothing else lists them.
 */
export class PlaceholderScanner {
  readonly colonMarkers: boolean;
  readonly markup: boolean;
  readonly blobs: boolean;
  readonly limits: DocumentLimits;
  readonly #state: ScanState;
  /** The spans of the run being masked (`mask` never runs inside itself: `decode` does not mask). */
  readonly #spans = new SpanList();

  constructor(options: PlaceholderOptions = {}) {
    this.colonMarkers = options.colonMarkers ?? false;
    this.markup = options.markup ?? false;
    this.blobs = options.blobs ?? false;
    this.limits = options.limits ?? DEFAULT_DOCUMENT_LIMITS;
    const index = patternIndex(options);
    this.#state = new ScanState(PATTERNS[index]!, STICKY_PATTERNS[index]!, CANDIDATE_TABLES[index]!, CANDIDATE_SEARCHES[index]!, this.limits.maxPlaceholderDepth);
  }

  /** The spans of `text` into `list` (emptied first). */
  scan(text: string, list: SpanList): void {
    list.clear();
    this.#state.start(text.length, false);
    scan(text, 0, text.length, this.#state, false, list, 0);
    list.closes = null;
    if (this.markup && list.tags > 0) pairTags(text, list);
  }

  /**
   * The spans of `text[from, to)`, as offsets into `text`, into `list` (emptied first), the
   * same as a scan of `text.slice(from, to)` gives shifted by `from` — without the slice
   * (a sliced string is one more indirection per read). Returns false, with `list`
   * undefined, when the answer could differ or cost a search past `to`: a match that would
   * end past `to`, a candidate that needs a regex search (`:`, `@`, `%` or `www.` before an
   * `@`), or a neighbouring character a lookaround would see; the caller then scans the slice.
   */
  scanRange(text: string, from: number, to: number, list: SpanList): boolean {
    list.clear();
    // The neighbours a lookbehind (at `from`) or lookahead (`[A-Za-z0-9]`, at `to`) would see.
    if (from > 0 && isLookbehind(text.charCodeAt(from - 1))) return false;
    if (to < text.length && isAlphanumeric(text.charCodeAt(to))) return false;
    const state = this.#state;
    state.start(to, true);
    scan(text, from, to, state, false, list, 0);
    list.closes = null;
    state.inRange = false;
    if (!state.undecided && this.markup && list.tags > 0) pairTags(text, list);
    return !state.undecided;
  }

  /**
   * The one way a text run becomes segment parts: `text[from, to)` into `sink`, each
   * placeholder (and, with `blobs`, each blob) a token, the text between them given as
   * `run.decode` reads it. `raw` is `text.slice(from, to)` when the caller already has it.
   */
  mask(sink: MaskSink, text: string, from: number, to: number, run: TextRun = SOURCE_RUN, raw?: string): void {
    if (to <= from) return;
    if (this.blobs && to - from >= BLOB_LENGTH) {
      const blob = findBlob(text, from, to);
      if (blob !== -1) {
        this.#maskAroundBlobs(sink, text, from, to, blob, run);
        return;
      }
    }
    this.#maskPlaceholders(sink, text, from, to, run, raw);
  }

  /** `text[from, to)` with the blob at `blob` (and any after it) as atoms, the stretches around them masked. */
  #maskAroundBlobs(sink: MaskSink, text: string, from: number, to: number, blob: number, run: TextRun): void {
    let last = from;
    while (blob !== -1) {
      const end = blobEnd(text, blob, to);
      if (blob > last) this.#maskPlaceholders(sink, text, last, blob, run, undefined);
      if (run.inSource) sink.mark(ATOM, blob, end, 0);
      else sink.literalMark!(ATOM, run.literal!(text.slice(blob, end)), 0);
      last = end;
      blob = end + BLOB_LENGTH <= to ? findBlob(text, end, to) : -1;
    }
    if (last < to) this.#maskPlaceholders(sink, text, last, to, run, undefined);
  }

  /**
   * `mask` of a stretch without blobs. The range is read in place (`scanRange`), or, when
   * that declines, its slice is scanned and the spans shifted back by `from`.
   */
  #maskPlaceholders(sink: MaskSink, text: string, from: number, to: number, run: TextRun, raw: string | undefined): void {
    const decode = run.decode;
    // A run with decoding (html, markdown) is often short and without a candidate: skip the
    // scan's set-up then. Without decoding, the scan's own first pass finds as much.
    if (decode !== undefined && candidateIn(text, from, to, to, this.#state.candidates) === -1) {
      const plain = raw ?? text.slice(from, to);
      sink.text(decode === undefined ? plain : decode(plain));
      return;
    }
    const spans = this.#spans;
    let shift = 0;
    if (!this.scanRange(text, from, to, spans)) {
      this.scan(raw ?? text.slice(from, to), spans);
      shift = from;
    }
    const data = spans.data;
    const count = spans.length;
    const literal = run.literal;
    let last = from;
    for (let k = 0; k < count; k += 4) {
      const start = data[k]! + shift;
      const end = data[k + 1]! + shift;
      if (start > last) sink.text(decode === undefined ? text.slice(last, start) : decode(text.slice(last, start)));
      if (run.inSource && (literal === undefined || !holdsSurrogate(text, start, end))) sink.mark(data[k + 2]!, start, end, data[k + 3]!);
      else sink.literalMark!(data[k + 2]!, literal!(text.slice(start, end)), data[k + 3]!);
      last = end;
    }
    if (last < to) sink.text(decode === undefined ? text.slice(last, to) : decode(text.slice(last, to)));
  }
}

/**
 * The index just past the `}` that closes the `{` at `open`, or -1 when none does before
 * `to`. Braces pair as a stack pairs them, which is what counting them from `open` gives.
 * The first question of a scan fills `spans.closes` in one pass from `open` to the end
 * of the text as the scan sees it; later ones look it up. (Matching braces again for
 * each argument read the rest of the text once per unclosed `{`: quadratic on
 * `{n, plural, one {` repeated.)
 */
function closeOf(state: ScanState, spans: SpanList, text: string, open: number, to: number): number {
  let closes = spans.closes;
  if (closes === null || open < spans.closesFrom) {
    // Every later question is about a `{` after this one: the table starts here.
    const from = open;
    const end = state.rangeEnd;
    closes = spans.closes = new Int32Array(end - from);
    spans.closesFrom = from;
    const stack: number[] = [];
    for (let i = from; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === LEFT_BRACE) stack.push(i);
      else if (c === RIGHT_BRACE && stack.length > 0) closes[stack.pop()! - from] = i + 1 - from;
    }
  }
  const close = closes[open - spans.closesFrom]!;
  if (close === 0) return -1;
  const end = spans.closesFrom + close;
  return end <= to ? end : -1;
}

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
function scan(text: string, from: number, to: number, ctx: ScanState, inPlural: boolean, spans: SpanList, depth: number): void {
  let hashFrom = from;
  let noAtSign: boolean | undefined;
  for (let at = from; ; ) {
    const candidate = nextCandidate(ctx, text, at, to);
    if (candidate === -1) break;
    const c = text.charCodeAt(candidate);
    let start: number;
    let matchEnd: number;
    if (c === LEFT_BRACE && codeAt(ctx, text, candidate + 1) !== LEFT_BRACE) {
      start = candidate;
      matchEnd = candidate + 1;
    } else if (
      c === LEFT_BRACE ||
      c === RIGHT_BRACE ||
      c === LESS_THAN ||
      c === DOLLAR ||
      c === AMPERSAND ||
      // (No e-mail address crosses `to`: at the top it is the end of the text, in an ICU body a `}`.)
      ((c === PERCENT || c === LOWER_W) /* w */ && (noAtSign ??= !hasCode(text, AT, from, to)))
    ) {
      const sticky = ctx.sticky;
      sticky.lastIndex = candidate;
      if (!sticky.test(text)) {
        at = candidate + 1;
        continue;
      }
      start = candidate;
      matchEnd = sticky.lastIndex;
      if (matchEnd > ctx.rangeEnd) {
        ctx.undecided = true;
        return;
      }
    } else {
      if (ctx.inRange) {
        ctx.undecided = true;
        return;
      }
      const pattern = ctx.pattern;
      pattern.lastIndex = at;
      const match = pattern.exec(text);
      if (!match || match.index >= to) break;
      start = match.index;
      matchEnd = start + match[0].length;
    }
    at = matchEnd;
    if (matchEnd - start === 1 && text.charCodeAt(start) === LEFT_BRACE) {
      const end = readIcu(text, start, to, ctx, spans, inPlural ? hashFrom : -1, depth);
      if (ctx.undecided) return;
      if (end < 0) continue;
      hashFrom = at = end;
      continue;
    }
    let end = matchEnd;
    const first = text.charCodeAt(start);
    if (end - start > 3 && (first === LOWER_H || first === LOWER_F || first === LOWER_W)) {
      const token = text.slice(start, end);
      if (URL_START.test(token)) end = start + trimUrl(token).length;
    }
    if (end > to) end = to;
    if (end === start) continue;
    if (inPlural) pushHashes(text, hashFrom, start, spans);
    hashFrom = at = end;
    if (first === LESS_THAN) spans.tags++;
    spans.add(start, end, ATOM, 0);
  }
  if (inPlural) pushHashes(text, hashFrom, to, spans);
}

const URL_START = /^(?:https?|ftp):|^www\./;

/** `#` inside a plural branch is the number: an atom. */
function pushHashes(text: string, from: number, upTo: number, spans: SpanList): void {
  for (let i = from; i < upTo; i++) if (text.charCodeAt(i) === HASH) spans.add(i, i + 1, ATOM, 0);
}

/**
 * The ICU reader (`readIcu`, `readBranches`) reads each character of an argument once:
 * `c`, the code of the character at `i`, goes from one step to the next, where each
 * step used to read again the character the last one stopped at, and branch bodies were
 * read three times. Reading arguments was most of the JSON adapter's placeholder time.
 *
 * At `to` and past it, `c` is `END`: no character, and in no class. (Some steps used to
 * read up to the scan's `rangeEnd`; the same, as `to` is `rangeEnd` except in a branch body, where
 * the braces balance, so no argument read there runs up to the body's end.)
 */
const END = 0x10000;
/** The char code at `i`, or `END` at or past `to`. */
const codeBefore = (text: string, i: number, to: number): number => (i < to ? text.charCodeAt(i) : END);

/** By char code below 128: `SPACE_CHAR` for `\s`, `IDENT_CHAR` for `[A-Za-z0-9_$.-]`. */
const ICU_CHAR = new Uint8Array(128);
const SPACE_CHAR = 1;
const IDENT_CHAR = 2;
for (const c of ' \t\n\v\f\r') ICU_CHAR[c.charCodeAt(0)] = SPACE_CHAR;
for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.-') ICU_CHAR[c.charCodeAt(0)] = IDENT_CHAR;

const WHITE_SPACE = /\s/;
const IDENT = /[\p{L}\p{N}_$.-]/u;
/** Whether `c` (a code unit, or `END`) is `\s`: ASCII by table, anything else asks the regex. */
const isSpace = (c: number): boolean => (c < ASCII_END ? ICU_CHAR[c] === SPACE_CHAR : c !== END && isWide(WHITE_SPACE, c));
/** Whether `c` (a code unit, or `END`) may be in an ICU identifier: `[\p{L}\p{N}_$.-]`. */
const isIdent = (c: number): boolean => (c < ASCII_END ? ICU_CHAR[c] === IDENT_CHAR : c !== END && isWide(IDENT, c));
/** A code unit beyond ASCII against a one-character class: rare, so apart, and the loops stay small. */
function isWide(charClass: RegExp, c: number): boolean {
  return charClass.test(String.fromCharCode(c));
}

/**
 * The ICU argument type at `text[from, to)`: 0 none of ours, 1 simple, 2 plural-like,
 * 3 select. (`plural` and `select` are tried first: they are the common ones.)
 */
function argumentType(text: string, from: number, to: number): number {
  switch (to - from) {
    case 4:
      return text.startsWith('date', from) || text.startsWith('time', from) ? 1 : 0;
    case 6:
      return text.startsWith('plural', from) ? 2 : text.startsWith('select', from) ? 3 : text.startsWith('number', from) ? 1 : 0;
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

/** Numbers per branch on `ScanState.branchStack`: selector start, body start, body end, `#` stretch start and end. */
const BRANCH_SLOTS = 5;

/**
 * Reads an ICU argument at `start` (a `{`). Simple arguments become one atom; plural
 * and select messages become header atom + one pair per branch + closing atom, with
 * the branch bodies scanned recursively. Returns the end index, or -1 if not ICU.
 * Inside a plural branch (`hashFrom` ≥ 0), the `#`s before this argument come first.
 */
function readIcu(text: string, start: number, to: number, ctx: ScanState, spans: SpanList, hashFrom: number, depth: number): number {
  // `{` name `}`, or `{` name `,` type, then `}` for a simple type, else `,` [offset] branches.
  let i = start + 1;
  let c = codeBefore(text, i, to);
  while (isSpace(c)) c = codeBefore(text, ++i, to);
  const nameStart = i;
  while (isIdent(c)) c = codeBefore(text, ++i, to);
  if (i === nameStart) return -1;
  while (isSpace(c)) c = codeBefore(text, ++i, to);
  if (c === RIGHT_BRACE) return addArgument(text, start, i + 1, spans, hashFrom);
  if (c !== COMMA) return -1;
  c = codeBefore(text, ++i, to);
  while (isSpace(c)) c = codeBefore(text, ++i, to);
  const typeStart = i;
  while (isIdent(c)) c = codeBefore(text, ++i, to);
  const type = argumentType(text, typeStart, i);
  if (type === 1) return addArgument(text, start, closeOf(ctx, spans, text, start, to), spans, hashFrom);
  if (type === 0) return -1;
  while (isSpace(c)) c = codeBefore(text, ++i, to);
  if (c !== COMMA) return -1;
  c = codeBefore(text, ++i, to);
  while (isSpace(c)) c = codeBefore(text, ++i, to);
  if (c === LOWER_O && i + 7 <= to && text.startsWith('offset:', i)) {
    i += 7;
    c = codeBefore(text, i, to);
    while (isSpace(c)) c = codeBefore(text, ++i, to);
    while (c >= DIGIT_0 && c <= DIGIT_9) c = codeBefore(text, ++i, to);
    while (isSpace(c)) c = codeBefore(text, ++i, to);
  }
  return readBranches(text, start, i, to, ctx, spans, hashFrom, type === 2, depth);
}

/** A simple argument `[start, end)` as one atom (none for `end` -1); returns `end`. */
function addArgument(text: string, start: number, end: number, spans: SpanList, hashFrom: number): number {
  if (end < 0) return -1;
  if (hashFrom >= 0) pushHashes(text, hashFrom, start, spans);
  spans.add(start, end, ATOM, 0);
  return end;
}

/**
 * The rest of an ICU message for `readIcu`: its branches from `headerEnd` (selector ws
 * `{` body `}` ws, repeated) up to its closing `}`, then its spans. Returns its end
 * index, or -1 with nothing added.
 *
 * A body is read once, in the loop over the branches. One without a candidate character
 * (see `nextCandidate`) holds no placeholder and no nested message, so a scan would only
 * find its `#`s: the branch keeps where they are. Any other body is matched to its `}`
 * here and scanned while the spans are added (brace matching, the scan's candidate loop
 * and a `#` loop used to read every body three times).
 */
function readBranches(text: string, start: number, headerEnd: number, to: number, ctx: ScanState, spans: SpanList, hashFrom: number, plural: boolean, depth: number): number {
  let i = headerEnd;
  let c = codeBefore(text, i, to);
  const branchStack = ctx.branchStack;
  const base = ctx.branchTop;
  let top = base;
  while (c !== RIGHT_BRACE) {
    const selStart = i;
    if (c === EQUALS) c = codeBefore(text, ++i, to);
    while (isIdent(c)) c = codeBefore(text, ++i, to);
    if (i === selStart) return -1;
    while (isSpace(c)) c = codeBefore(text, ++i, to);
    if (c !== LEFT_BRACE) return -1;
    branchStack[top] = selStart;
    branchStack[top + 1] = i + 1;
    let needsScan = false;
    let firstHash = -1;
    let lastHash = -1;
    for (c = codeBefore(text, ++i, to); c !== RIGHT_BRACE; c = codeBefore(text, ++i, to)) {
      if (c === HASH) {
        if (firstHash < 0) firstHash = i;
        lastHash = i;
      } else if (c >= ASCII_END) {
        if (c === END) return -1;
      } else if (ctx.candidates[c] !== 0 && (c !== LOWER_W || startsWww(text, i, ctx.rangeEnd))) {
        // A placeholder or a nested message: the body ends at the `}` balancing its `{`.
        i = closeOf(ctx, spans, text, branchStack[top + 1]! - 1, to) - 1;
        if (i < 0) return -1;
        needsScan = true;
        break;
      }
    }
    branchStack[top + 2] = i;
    // Its `#`s lie from `firstHash` to `lastHash` (none: an empty stretch at its end).
    branchStack[top + 3] = needsScan ? -1 : firstHash < 0 ? i : firstHash;
    branchStack[top + 4] = lastHash + 1;
    top += BRANCH_SLOTS;
    c = codeBefore(text, ++i, to);
    while (isSpace(c)) c = codeBefore(text, ++i, to);
  }
  if (top === base) return -1;
  // A whole message, `depth` messages deep: its bodies are read by recursion, so the depth is bounded.
  if (depth >= ctx.maxDepth) throw tooComplex('the nesting of ICU plural/select messages', ctx.maxDepth);
  if (hashFrom >= 0) pushHashes(text, hashFrom, start, spans);
  spans.add(start, headerEnd, ATOM, 0);
  // One pair per branch: from its selector to its body, and from the end of its body to
  // the next selector or the closing `}` at `i`. Bodies scanned now stack above `top`.
  ctx.branchTop = top;
  for (let b = base; b < top; b += BRANCH_SLOTS) {
    const pair = newPairId();
    const bodyEnd = branchStack[b + 2]!;
    spans.add(branchStack[b]!, branchStack[b + 1]!, OPEN, pair);
    if (branchStack[b + 3]! < 0) {
      scan(text, branchStack[b + 1]!, bodyEnd, ctx, plural, spans, depth + 1);
      if (ctx.undecided) {
        ctx.branchTop = base;
        return -1;
      }
    } else if (plural) pushHashes(text, branchStack[b + 3]!, branchStack[b + 4]!, spans);
    spans.add(bodyEnd, b + BRANCH_SLOTS < top ? branchStack[b + BRANCH_SLOTS]! : i, CLOSE, pair);
  }
  ctx.branchTop = base;
  spans.add(i, i + 1, ATOM, 0);
  return i + 1;
}

/**
 * Pairs the tags among the atoms of `list` (the `markup` option), in place: a start tag
 * and the next end tag of the same name with only pairs between them become an open and
 * a close; any other tag stays an atom (an empty tag, a void `<br>`, one left open, one
 * that crosses another or an ICU branch). Literal token-like text (`<g1>`) stays an atom.
 */
function pairTags(text: string, list: SpanList): void {
  const data = list.data;
  // Start tags waiting for their end tag, by their index in `data`; -1 marks an ICU branch.
  const waiting: number[] = [];
  for (let k = 0; k < list.length; k += 4) {
    const type = data[k + 2]!;
    if (type === OPEN) waiting.push(-1);
    else if (type === CLOSE) {
      // A start tag left open inside the branch stays an atom.
      while (waiting.length > 0 && waiting.pop() !== -1) continue;
    }
    else {
      const start = data[k]!;
      const end = data[k + 1]!;
      if (text.charCodeAt(start) !== LESS_THAN || text.charCodeAt(end - 1) !== GREATER_THAN || text.charCodeAt(end - 2) === SLASH) continue;
      if (LITERAL_TOKEN.test(text.slice(start, end))) continue;
      if (text.charCodeAt(start + 1) !== SLASH) {
        waiting.push(k);
        continue;
      }
      const open = waiting.length > 0 ? waiting[waiting.length - 1]! : -1;
      if (open >= 0 && sameTagName(text, data[open]! + 1, start + 2)) {
        waiting.pop();
        const pair = newPairId();
        data[open + 2] = OPEN;
        data[open + 3] = pair;
        data[k + 2] = CLOSE;
        data[k + 3] = pair;
      }
    }
  }
}

const LITERAL_TOKEN = /^(?:<\/?g\d+>|<x\d+\/>)$/;

/** Whether the tag names starting at `a` and `b` (up to white space, `/` or `>`) are the same. */
function sameTagName(text: string, a: number, b: number): boolean {
  for (;;) {
    const x = text.charCodeAt(a++);
    const y = text.charCodeAt(b++);
    const xEnds = x === GREATER_THAN || x === SLASH || x <= SPACE;
    const yEnds = y === GREATER_THAN || y === SLASH || y <= SPACE;
    if (xEnds || yEnds) return xEnds && yEnds;
    if (x !== y) return false;
  }
}

/**
 * A blob: a run of at least BLOB_LENGTH characters of base64, base64url or hex with a
 * digit in it (an image inlined as data, a key, a hash). No word of any language is one,
 * a translator must keep it as it is, and it is costly to count in model tokens (one per
 * two or three characters, none of them cached): it is an atom, found before the scan.
 */
const BLOB_LENGTH = 64;
const BLOB_CHAR = new Uint8Array(128);
for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/=_-') BLOB_CHAR[c.charCodeAt(0)] = 1;
const isBlobChar = (c: number): boolean => c < ASCII_END && BLOB_CHAR[c] === 1;

/**
 * The start of the first blob in `text[from, to)`, or -1 (its end: `blobEnd`). It looks
 * at every BLOB_LENGTH-th character only, as any blob holds one of them, and around
 * those that could be in one: a fraction of the characters of ordinary text.
 */
function findBlob(text: string, from: number, to: number): number {
  for (let probe = from + BLOB_LENGTH - 1; probe < to; ) {
    if (!isBlobChar(text.charCodeAt(probe))) {
      probe += BLOB_LENGTH;
      continue;
    }
    let start = probe;
    while (start > from && isBlobChar(text.charCodeAt(start - 1))) start--;
    const end = blobEnd(text, probe, to);
    if (end - start >= BLOB_LENGTH) {
      for (let i = start; i < end; i++) {
        const c = text.charCodeAt(i);
        if (c >= DIGIT_0 && c <= DIGIT_9) return start;
      }
    }
    probe = end + BLOB_LENGTH;
  }
  return -1;
}

function blobEnd(text: string, from: number, to: number): number {
  let end = from;
  while (end < to && isBlobChar(text.charCodeAt(end))) end++;
  return end;
}

function holdsSurrogate(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if ((text.charCodeAt(i) & 0xf800) === 0xd800) return true;
  return false;
}
