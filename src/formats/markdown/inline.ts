/**
 * A fast reader of markdown inline content for the marked path (markdown/blocks.ts): it
 * takes a block's text (a paragraph, heading or table cell as marked's block lexer gives
 * it) and returns its inline nodes with text offsets, exactly as mdast (micromark + GFM)
 * reads them, or null when the text holds anything it does not implement. The caller
 * then has mdast read the block (marked's inline lexer, once a step between the two, read
 * no block of 394 real READMEs that this reader declined; it was removed).
 *
 * Implemented, as micromark does it: text, character escapes and references (text to
 * mdast), code spans, emphasis and strong with `*` and `_` (micromark's attention
 * resolution, rule of three included), inline links and images with a destination and
 * title, reference links and images against the document's definition labels, links
 * not nesting in links, hard breaks from trailing spaces, line prefixes not being text, and GFM
 * literal autolinks (`www.`, `http(s)://`, e-mails; not `npm@1.2.3`), autolinks in
 * `<…>` and inline HTML (tags, comments, instructions, declarations, CDATA).
 * Null for: `~` (strikethrough), `[^` (footnotes), a backslash line break, a bracket
 * pair when the definition labels are not known, a `www.` that could be
 * the start of an e-mail, a leading task-list check, NUL, and paragraphs on which
 * micromark's emphasis resolution would go quadratic (a work budget). The reference is
 * markdown/adapter.ts's mdast reading, which leaves out mdast-util-gfm-autolink-literal's pass
 * over text nodes (links without offsets).
 */
import type { Definitions, ScanNode } from './nodes.js';
import * as charCodes from '../core/char-codes.js';
// Module-local constants, not imported bindings, for the inner loops (why: core/char-codes.ts).
const { AMPERSAND, ASCII_END, ASTERISK, AT, BACKSLASH, BACKTICK, CARET, CASE_BIT, COLON, COMMA, DASH, DELETE, DIGIT_0, DIGIT_9, DOLLAR, DOT, DOUBLE_QUOTE, EQUALS, EXCLAMATION, GREATER_THAN, HASH, LEFT_BRACE, LEFT_BRACKET, LEFT_PAREN, LESS_THAN, LINE_FEED, LOWER_A, LOWER_W, LOWER_X, LOWER_Z, PERCENT, PLUS, QUESTION, RIGHT_BRACKET, RIGHT_PAREN, SEMICOLON, SINGLE_QUOTE, SLASH, SPACE, TAB, TILDE, UNDERSCORE, UPPER_A, UPPER_W, UPPER_X, UPPER_Z } = charCodes;

/** What a pending item is. */
const ItemKind = {
  Text: 0,
  /** An attention sequence (`*`, `_` runs) waiting for resolution. */
  Delim: 1,
  /** A label start (`[` or `![`). */
  Start: 2,
  /** A finished node. */
  Node: 3,
  /** Spaces/tabs alone before a line ending: text only when a text node is already open. */
  Suffix: 4,
} as const;
type ItemKind = (typeof ItemKind)[keyof typeof ItemKind];

/** A pending inline item: text, an attention sequence, a label start, or a finished node. */
interface Item {
  kind: ItemKind;
  start: number;
  end: number;
  /** ItemKind.Delim: `*` or `_` char code. */
  marker: number;
  open: boolean;
  close: boolean;
  /** ItemKind.Start: `![`; its order among starts (a link makes every earlier link start inactive); balanced (failed). */
  image: boolean;
  seq: number;
  balanced: boolean;
  node: ScanNode | null;
}

function item(kind: ItemKind, start: number, end: number, node: ScanNode | null = null): Item {
  return { kind, start, end, marker: 0, open: false, close: false, image: false, seq: 0, balanced: false, node };
}

/** 1 whitespace, 2 punctuation, 0 other: micromark's classifyCharacter (per UTF-16 unit). */
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < ASCII_END; c++) {
  const ch = String.fromCharCode(c);
  ASCII_CLASS[c] = /\s/.test(ch) ? 1 : /\p{P}|\p{S}/u.test(ch) ? 2 : 0;
}
const UNICODE_WHITESPACE = /\s/;
const UNICODE_PUNCTUATION = /\p{P}|\p{S}/u;
function classify(text: string, at: number): number {
  if (at < 0 || at >= text.length) return 1;
  const code = text.charCodeAt(at);
  if (code < ASCII_END) return ASCII_CLASS[code]!;
  const ch = String.fromCharCode(code);
  return UNICODE_WHITESPACE.test(ch) ? 1 : UNICODE_PUNCTUATION.test(ch) ? 2 : 0;
}

/** Characters that end a plain text run (or may: `@`, `:`, `w` start GFM literal autolinks). */
const SPECIAL = new Uint8Array(128);
for (const c of '\\`*_![]\n<~\0@:wW') SPECIAL[c.charCodeAt(0)] = 1;

function isAsciiPunctuation(code: number): boolean {
  return (code >= EXCLAMATION && code <= SLASH) || (code >= COLON && code <= AT) || (code >= LEFT_BRACKET && code <= BACKTICK) || (code >= LEFT_BRACE && code <= TILDE);
}



/**
 * Where a text item that runs up to a node at `node` ends: at `node`, or, when only a
 * line's indentation lies between the last line break and `node`, right after that
 * break. Text merged across a line (`a\n  x_y…`) holds the next line's indentation, and
 * mdast's text ends at the break when a node starts the line.
 */
function textEndBefore(text: string, start: number, node: number): number {
  let end = node;
  while (end > start && (text.charCodeAt(end - 1) === SPACE || text.charCodeAt(end - 1) === TAB)) end--;
  return end > start && text.charCodeAt(end - 1) === LINE_FEED ? end : node;
}

/** GFM e-mail local part characters (micromark's gfmAtext). */
function isAtext(code: number): boolean {
  return code === PLUS || code === DASH || code === DOT || code === UNDERSCORE || (code >= DIGIT_0 && code <= DIGIT_9) || (code >= UPPER_A && code <= UPPER_Z) || (code >= LOWER_A && code <= LOWER_Z);
}
function isAsciiAlphanumeric(code: number): boolean {
  return (code >= DIGIT_0 && code <= DIGIT_9) || (code >= UPPER_A && code <= UPPER_Z) || (code >= LOWER_A && code <= LOWER_Z);
}
function isAsciiAlpha(code: number): boolean {
  return (code >= UPPER_A && code <= UPPER_Z) || (code >= LOWER_A && code <= LOWER_Z);
}

class Bail extends Error {}
const BAIL = new Bail();

/**
 * The work a reader may still do on its block (backward scans, array shifts, code span
 * searches). micromark's attention resolution is quadratic on some inputs (many unmatched
 * closers, thousands of pairs in one paragraph); past this budget the reader declines.
 * One per reader (it was a module-level variable).
 */
class WorkBudget {
  constructor(private left: number) {}

  spend(units: number): void {
    this.left -= units;
    if (this.left < 0) throw BAIL;
  }
}

/** micromark's normalizeIdentifier. */
export function normalizeLabel(label: string): string {
  return label.replace(/[\t\n\r ]+/g, ' ').replace(/^ | $/g, '').toLowerCase().toUpperCase();
}

const NO_DEFINITIONS: ReadonlySet<string> = new Set();

/**
 * Reads `text` from offset `from` (after a task checkbox) as inline content, given the
 * document's `definitions` (true: unknown, false: none).
 */
export function scanInline(text: string, from: number, definitions: Definitions | boolean): ScanNode[] | null {
  const c0 = text.charCodeAt(from);
  if (c0 === LEFT_BRACKET && text.charCodeAt(from + 2) === RIGHT_BRACKET) {
    const c1 = text.charCodeAt(from + 1);
    if (c1 === SPACE || c1 === LOWER_X || c1 === UPPER_X) return null; // a GFM task check mdast may see
  }
  try {
    const work = new WorkBudget(4 * (text.length - from) + 4096);
    return new InlineReader(text, definitions === true ? 'unknown' : definitions === false ? NO_DEFINITIONS : definitions, work).run(from);
  } catch (error) {
    if (error === BAIL) return null;
    throw error;
  }
}

/** One block's inline content read once (`run`); its state, the work budget included, is its own. */
class InlineReader {
  readonly #items: Item[] = [];
  /** Label starts (indices into #items), innermost last. */
  readonly #starts: number[] = [];
  #seq = 0;
  /** Link starts with a lower seq are inactive: a link formed after them. */
  #deadBefore = 0;
  /** Backtick run lengths that have no closing run after some point (so none after any later point). */
  readonly #noCodeClose = new Set<number>();

  readonly #work: WorkBudget;

  constructor(
    private readonly text: string,
    private readonly definitions: Definitions,
    work: WorkBudget,
  ) {
    this.#work = work;
  }

  run(from: number): ScanNode[] {
    const text = this.text;
    const items = this.#items;
    const length = text.length;
    let runStart = from;
    let i = from;
    while (i < length) {
      const code = text.charCodeAt(i);
      if (code >= ASCII_END || SPECIAL[code] === 0) {
        i++;
        continue;
      }
      switch (code) {
        case BACKSLASH: {
          // `\`: an escape (text), a hard break (not implemented) or a literal backslash.
          const next = text.charCodeAt(i + 1);
          if (next === LINE_FEED) throw BAIL;
          i += isAsciiPunctuation(next) ? 2 : 1;
          continue;
        }
        case BACKTICK: {
          let n = 1;
          while (text.charCodeAt(i + n) === BACKTICK) n++;
          const close = this.#noCodeClose.has(n) ? -1 : findCodeClose(this.#work, text, i + n, n);
          if (close === -1) {
            this.#noCodeClose.add(n);
            i += n;
            continue;
          }
          if (i > runStart) this.#text(runStart, i);
          items.push(item(ItemKind.Node, i, close, { type: 'inlineCode', start: i, end: close }));
          i = runStart = close;
          continue;
        }
        case ASTERISK:
        case UNDERSCORE: {
          let n = 1;
          while (text.charCodeAt(i + n) === code) n++;
          if (i > runStart) this.#text(runStart, i);
          const before = i === from ? 1 : classify(text, i - 1);
          const after = classify(text, i + n);
          const open = after === 0 || (after === 2 && before !== 0);
          const close = before === 0 || (before === 2 && after !== 0);
          const delim = item(ItemKind.Delim, i, i + n);
          delim.marker = code;
          delim.open = code === ASTERISK ? open : open && (before !== 0 || !close);
          delim.close = code === ASTERISK ? close : close && (after !== 0 || !open);
          items.push(delim);
          i = runStart = i + n;
          continue;
        }
        case EXCLAMATION:
          if (text.charCodeAt(i + 1) !== LEFT_BRACKET) {
            i++;
            continue;
          }
          if (text.charCodeAt(i + 2) === CARET) throw BAIL;
          if (i > runStart) this.#text(runStart, i);
          this.#starts.push(items.length);
          items.push(item(ItemKind.Start, i, i + 2));
          items[items.length - 1]!.image = true;
          items[items.length - 1]!.seq = this.#seq++;
          i = runStart = i + 2;
          continue;
        case LEFT_BRACKET:
          if (text.charCodeAt(i + 1) === CARET) throw BAIL;
          if (i > runStart) this.#text(runStart, i);
          this.#starts.push(items.length);
          items.push(item(ItemKind.Start, i, i + 1));
          items[items.length - 1]!.seq = this.#seq++;
          i = runStart = i + 1;
          continue;
        case RIGHT_BRACKET: {
          const end = this.#labelEnd(i, runStart);
          if (end === -1) {
            i++;
            continue;
          }
          i = runStart = end;
          continue;
        }
        case LINE_FEED: {
          let k = i;
          let tab = false;
          while (k > runStart) {
            const c = text.charCodeAt(k - 1);
            if (c === SPACE) k--;
            else if (c === TAB) {
              tab = true;
              k--;
            } else break;
          }
          let j = i + 1;
          while (text.charCodeAt(j) === SPACE || text.charCodeAt(j) === TAB) j++;
          // (marked may leave a last blank line in the text: no break before it.)
          if (i - k >= 2 && !tab && !blankToEnd(text, j)) {
            if (k > runStart) this.#text(runStart, k);
            items.push(item(ItemKind.Node, k, i + 1, { type: 'break', start: k, end: i + 1 }));
          } else if (k === runStart && i > runStart) {
            items.push(item(ItemKind.Suffix, runStart, i));
            this.#text(i, i + 1);
          } else this.#text(runStart, i + 1);
          // The next line's indentation is a line prefix, not text.
          i = runStart = j;
          continue;
        }
        case LOWER_W:
        case UPPER_W:
        case COLON:
        case AT: {
          // GFM literal autolinks, where micromark starts them: `www.`, `http://` and
          // `https://` (read from the `:`), an e-mail address (read from the `@`).
          const end = code === AT ? this.#email(i, from, runStart) : code === COLON ? this.#protocol(i, from, runStart) : this.#www(i, from, runStart);
          if (end === -1) i++;
          else i = runStart = end;
          continue;
        }
        case LESS_THAN: {
          // `<`: an autolink, else inline HTML, else text (micromark's order).
          let end = angleAutolink(this.#work, text, i);
          let node: ScanNode | null = null;
          if (end !== -1) node = { type: 'autolink', start: i, end };
          else {
            end = inlineHtml(this.#work, text, i);
            if (end !== -1) node = { type: 'html', start: i, end, value: text.slice(i, end) };
          }
          if (!node) {
            i++;
            continue;
          }
          if (i > runStart) this.#text(runStart, i);
          items.push(item(ItemKind.Node, i, end, node));
          i = runStart = end;
          continue;
        }
        default:
          // `~`, NUL.
          throw BAIL;
      }
    }
    if (length > runStart) this.#text(runStart, length);
    return resolve(this.#work, items, 0, items.length);
  }

  /**
   * An `@` at `at` in text. micromark's GFM literal e-mail autolink starts where the
   * local part does (after neither a local-part character nor `/`, outside any open
   * link label): if it forms there, the local part's items are taken back and the
   * autolink is a node (returns its end); otherwise the `@` is text (-1).
   */
  #email(at: number, from: number, runStart: number): number {
    const text = this.text;
    // The local part cannot reach into a node read before (an autolink, code …): its
    // last character is then what precedes the local part.
    let floor = from;
    for (let k = this.#items.length - 1; k >= 0; k--) {
      const kind = this.#items[k]!.kind;
      if (kind === ItemKind.Node || kind === ItemKind.Start) {
        floor = this.#items[k]!.end;
        break;
      }
    }
    let start = at;
    while (start > floor && isAtext(text.charCodeAt(start - 1))) start--;
    if (start === at) return -1;
    if (this.#inLabel()) return -1;
    const before = start > from ? text.charCodeAt(start - 1) : -1;
    if (before === SLASH || (before >= 0 && isAtext(before))) return -1;
    if (before === BACKSLASH) {
      // `\_x@…`: the first local-part character is escaped, so every one after it follows a
      // local-part character; after `\\` it follows a backslash.
      let backslashes = 0;
      while (start - 1 - backslashes >= from && text.charCodeAt(start - 1 - backslashes) === BACKSLASH) backslashes++;
      if (backslashes % 2 === 1 && isAsciiPunctuation(text.charCodeAt(start))) return -1;
    }
    // micromark's emailDomain: [-_alnum], a dot only when an alphanumeric follows.
    let i = at + 1;
    let data = false;
    let dot = false;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === DOT && isAsciiAlphanumeric(text.charCodeAt(i + 1))) {
        dot = true;
        i++;
      } else if (c === DASH || c === UNDERSCORE || isAsciiAlphanumeric(c)) {
        data = true;
        i++;
      } else break;
    }
    if (!data || !dot || !isAsciiAlpha(text.charCodeAt(i - 1))) return -1;
    // The local part's text and `_` runs were read already: take them back.
    const items = this.#items;
    while (items.length > 0 && items[items.length - 1]!.start >= start) items.pop();
    const last = items[items.length - 1];
    if (last && last.end > start) {
      if (last.kind !== ItemKind.Text) throw BAIL;
      last.end = textEndBefore(text, last.start, start);
    }
    return this.#autolink(start, i, runStart);
  }

  /** Whether a link or image label is open (micromark makes no literal autolink in one). */
  #inLabel(): boolean {
    for (const s of this.#starts) if (!this.#items[s]!.balanced) return true;
    return false;
  }

  /**
   * A `w` at `at`: `www.` there is micromark's wwwAutolink (after nothing, whitespace or
   * one of `( * _ [ ] ~`; then a domain and a path). Returns the autolink's end, or -1
   * for text.
   */
  #www(at: number, from: number, runStart: number): number {
    const text = this.text;
    if ((text.charCodeAt(at + 1) | CASE_BIT) !== LOWER_W || (text.charCodeAt(at + 2) | CASE_BIT) !== LOWER_W || text.charCodeAt(at + 3) !== DOT) return -1;
    const before = at > from ? text.charCodeAt(at - 1) : -1;
    if (!(before === -1 || before === LEFT_PAREN || before === ASTERISK || before === UNDERSCORE || before === LEFT_BRACKET || before === RIGHT_BRACKET || before === TILDE || before === SPACE || before === TAB || before === LINE_FEED)) return -1;
    if (this.#inLabel()) return -1;
    if (at + 4 >= text.length) return -1;
    // micromark tries an e-mail first where its local part starts (here, or at a `_`
    // before): one whose local part runs on to an `@` is not modelled.
    let k = at;
    while (isAtext(text.charCodeAt(k))) k++;
    if (text.charCodeAt(k) === AT) throw BAIL;
    const domain = gfmDomain(this.#work, text, at);
    if (domain === -1) return -1;
    return this.#autolink(at, gfmPath(this.#work, text, domain), runStart);
  }

  /**
   * A `:` at `colon`: `://` there is micromark's protocolAutolink, started at the `h` of
   * `http` or `https` (after a non-letter), then a domain and a path. Returns its end, or -1.
   */
  #protocol(colon: number, from: number, runStart: number): number {
    const text = this.text;
    if (text.charCodeAt(colon + 1) !== SLASH || text.charCodeAt(colon + 2) !== SLASH) return -1;
    let start = colon;
    while (start > from && colon - start < 5 && isAsciiAlpha(text.charCodeAt(start - 1))) start--;
    const protocol = text.slice(start, colon).toLowerCase();
    if (protocol !== 'http' && protocol !== 'https') {
      // A longer run of letters (`xhttps`) makes no autolink; neither does anything else.
      return -1;
    }
    if (start > from && isAsciiAlpha(text.charCodeAt(start - 1))) return -1;
    // Letters inside a node read before (an e-mail autolink ending in `https`) start nothing.
    if (start < runStart) return -1;
    if (this.#inLabel()) return -1;
    const c = text.charCodeAt(colon + 3);
    if (Number.isNaN(c) || c < SPACE || c === DELETE || classify(text, colon + 3) !== 0) return -1;
    const domain = gfmDomain(this.#work, text, colon + 3);
    if (domain === -1) return -1;
    return this.#autolink(start, gfmPath(this.#work, text, domain), runStart);
  }

  /** An autolink node [start, end) after the text before it. */
  #autolink(start: number, end: number, runStart: number): number {
    if (runStart < start) this.#text(runStart, start);
    this.#items.push(item(ItemKind.Node, start, end, { type: 'autolink', start, end }));
    return end;
  }

  /** Text [start, end): joins a text item just before it (mdast merges them anyway). */
  #text(start: number, end: number): void {
    const items = this.#items;
    const last = items[items.length - 1];
    if (last && last.kind === ItemKind.Text) last.end = end;
    else items.push(item(ItemKind.Text, start, end));
  }

  /**
   * A `]` at `at`: forms a link or image with the innermost open label start, or is
   * literal (returns -1). Returns the offset after the link.
   */
  #labelEnd(at: number, runStart: number): number {
    const items = this.#items;
    const starts = this.#starts;
    while (starts.length > 0 && items[starts[starts.length - 1]!]!.balanced) starts.pop();
    if (starts.length === 0) return -1;
    const startIndex = starts[starts.length - 1]!;
    const start = items[startIndex]!;
    if (!start.image && start.seq < this.#deadBefore) {
      start.balanced = true;
      return -1;
    }
    const next = this.text.charCodeAt(at + 1);
    const resource = next === LEFT_PAREN ? this.#resource(at + 1) : -1;
    let end: number;
    let type: ScanNode['type'];
    let full = false;
    if (resource !== -1) {
      end = resource < 0 ? -resource : resource;
      type = start.image ? 'image' : 'link';
    } else {
      // `[text][label]`, `[label][]` or `[label]`: a reference if defined.
      end = this.#reference(start.end, at);
      if (end === -1) {
        start.balanced = true;
        return -1;
      }
      full = end < 0;
      if (full) end = -end;
      type = start.image ? 'imageReference' : 'linkReference';
    }
    // The label's text ends here; its items become the node's children.
    if (at > runStart) this.#text(runStart, at);
    starts.pop();
    const node: ScanNode = {
      type,
      start: start.start,
      end,
      children: start.image ? [] : resolve(this.#work, items, startIndex + 1, items.length),
    };
    if (type === 'link' || type === 'image') node.title = resource < 0;
    else node.full = full;
    items.length = startIndex;
    items.push(item(ItemKind.Node, start.start, end, node));
    // Links do not contain links: every earlier link start is dead.
    if (!start.image) this.#deadBefore = start.seq;
    return end;
  }

  /**
   * micromark's labelEnd without a resource, for the label `text[labelStart, close)`:
   * the end of a reference link (negated for a full one, `[text][label]`), or -1. Its
   * own label defined makes a shortcut (or, before `[]`, a collapsed) reference; a
   * defined `[label]` right after it a full one; a `[` after a defined label that
   * starts neither is no link at all.
   */
  #reference(labelStart: number, close: number): number {
    const definitions = this.definitions;
    if (definitions === 'unknown') throw BAIL;
    if (definitions.size === 0) return -1;
    const text = this.text;
    const defined = definitions.has(normalizeLabel(text.slice(labelStart, close)));
    if (text.charCodeAt(close + 1) !== LEFT_BRACKET) return defined ? close + 1 : -1;
    const end = referenceLabelEnd(this.#work, text, close + 1);
    if (end !== -1 && definitions.has(normalizeLabel(text.slice(close + 2, end)))) return -(end + 1);
    if (defined && text.charCodeAt(close + 2) === RIGHT_BRACKET) return close + 3;
    return -1;
  }

  /**
   * An inline link's `(destination "title")` at `open` (a `(`): the offset after its
   * `)`, negated when it has a non-empty title; -1 when it is not one.
   */
  #resource(open: number): number {
    const text = this.text;
    let i = skipWhitespace(text, open + 1);
    let title = false;
    if (text.charCodeAt(i) !== RIGHT_PAREN) {
      // Destination.
      if (text.charCodeAt(i) === LESS_THAN) {
        i++;
        for (;;) {
          const c = text.charCodeAt(i);
          if (c === GREATER_THAN) {
            i++;
            break;
          }
          if (Number.isNaN(c) || c === LESS_THAN || c === LINE_FEED) return -1;
          i += c === BACKSLASH && (text.charCodeAt(i + 1) === LESS_THAN || text.charCodeAt(i + 1) === GREATER_THAN || text.charCodeAt(i + 1) === BACKSLASH) ? 2 : 1;
        }
      } else {
        let balance = 0;
        const first = text.charCodeAt(i);
        if (Number.isNaN(first) || first === SPACE || first < SPACE || first === DELETE) return -1;
        for (;;) {
          const c = text.charCodeAt(i);
          if (balance === 0 && (Number.isNaN(c) || c === RIGHT_PAREN || c === SPACE || c === TAB || c === LINE_FEED)) break;
          if (c === LEFT_PAREN) {
            if (balance >= 32) return -1;
            balance++;
            i++;
            continue;
          }
          if (c === RIGHT_PAREN) {
            balance--;
            i++;
            continue;
          }
          if (Number.isNaN(c) || c === SPACE || c < SPACE || c === DELETE) return -1;
          i += c === BACKSLASH && (text.charCodeAt(i + 1) === LEFT_PAREN || text.charCodeAt(i + 1) === RIGHT_PAREN || text.charCodeAt(i + 1) === BACKSLASH) ? 2 : 1;
        }
      }
      const afterDestination = i;
      i = skipWhitespace(text, i);
      const marker = text.charCodeAt(i);
      if (i > afterDestination && (marker === DOUBLE_QUOTE || marker === SINGLE_QUOTE || marker === LEFT_PAREN)) {
        const close = marker === LEFT_PAREN ? RIGHT_PAREN : marker;
        const titleStart = i + 1;
        i++;
        for (;;) {
          const c = text.charCodeAt(i);
          if (Number.isNaN(c)) return -1;
          if (c === close) break;
          i += c === BACKSLASH && (text.charCodeAt(i + 1) === close || text.charCodeAt(i + 1) === BACKSLASH) ? 2 : 1;
        }
        title = i > titleStart;
        i = skipWhitespace(text, i + 1);
      }
    }
    if (text.charCodeAt(i) !== RIGHT_PAREN) return -1;
    return title ? -(i + 1) : i + 1;
  }
}

function blankToEnd(text: string, i: number): boolean {
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== TAB && c !== LINE_FEED) return false;
  }
  return true;
}

/** micromark-extension-gfm-autolink-literal's trail check: only trailing punctuation from `i` to a space, `<` or the end. */
function gfmTrail(work: WorkBudget, text: string, i: number): boolean {
  for (;;) {
    work.spend(1);
    const c = text.charCodeAt(i);
    if (c === EXCLAMATION || c === DOUBLE_QUOTE || c === SINGLE_QUOTE || c === RIGHT_PAREN || c === ASTERISK || c === COMMA || c === DOT || c === COLON || c === SEMICOLON || c === QUESTION || c === UNDERSCORE || c === TILDE) {
      i++;
      continue;
    }
    if (c === AMPERSAND) {
      i++;
      if (!isAsciiAlpha(text.charCodeAt(i))) return false;
      while (isAsciiAlpha(text.charCodeAt(i))) i++;
      if (text.charCodeAt(i) !== SEMICOLON) return false;
      i++;
      continue;
    }
    if (c === RIGHT_BRACKET) {
      i++;
      const d = text.charCodeAt(i);
      if (Number.isNaN(d) || d === LEFT_PAREN || d === LEFT_BRACKET || classify(text, i) === 1) return true;
      continue;
    }
    return c === LESS_THAN || Number.isNaN(c) || classify(text, i) === 1;
  }
}

/** micromark-extension-gfm-autolink-literal's domain from `i`: its end, or -1. */
function gfmDomain(work: WorkBudget, text: string, i: number): number {
  let underscoreInLast = false;
  let underscoreInLastLast = false;
  let seen = false;
  for (;;) {
    work.spend(1);
    const c = text.charCodeAt(i);
    if (c === DOT || c === UNDERSCORE) {
      if (gfmTrail(work, text, i)) break;
      if (c === UNDERSCORE) underscoreInLast = true;
      else {
        underscoreInLastLast = underscoreInLast;
        underscoreInLast = false;
      }
      i++;
      continue;
    }
    if (Number.isNaN(c)) break;
    const kind = classify(text, i);
    if (kind === 1 || (c !== DASH && kind === 2)) break;
    seen = true;
    i++;
  }
  return underscoreInLastLast || underscoreInLast || !seen ? -1 : i;
}

/** micromark-extension-gfm-autolink-literal's path from `i` (possibly empty): its end. */
function gfmPath(work: WorkBudget, text: string, i: number): number {
  let open = 0;
  let close = 0;
  for (;;) {
    work.spend(1);
    const c = text.charCodeAt(i);
    if (c === LEFT_PAREN) {
      open++;
      i++;
      continue;
    }
    if (c === RIGHT_PAREN && close < open) {
      close++;
      i++;
      continue;
    }
    if (c === EXCLAMATION || c === DOUBLE_QUOTE || c === AMPERSAND || c === SINGLE_QUOTE || c === RIGHT_PAREN || c === ASTERISK || c === COMMA || c === DOT || c === COLON || c === SEMICOLON || c === LESS_THAN || c === QUESTION || c === RIGHT_BRACKET || c === UNDERSCORE || c === TILDE) {
      if (gfmTrail(work, text, i)) return i;
      if (c === RIGHT_PAREN) close++;
      i++;
      continue;
    }
    if (Number.isNaN(c) || classify(text, i) === 1) return i;
    i++;
  }
}

/** micromark's asciiAtext: `#-'*+\--9=?A-Z^-~`. */
function isAsciiAtext(code: number): boolean {
  return code === HASH || code === DOLLAR || code === PERCENT || code === AMPERSAND || code === SINGLE_QUOTE || code === ASTERISK || code === PLUS || (code >= DASH && code <= DIGIT_9) || code === EQUALS || code === QUESTION || (code >= UPPER_A && code <= UPPER_Z) || (code >= CARET && code <= TILDE);
}

/** micromark's autolink (`<scheme:…>`, `<a@b.c>`) at `at` (a `<`): its end, or -1. */
function angleAutolink(work: WorkBudget, text: string, at: number): number {
  let i = at + 1;
  let c = text.charCodeAt(i);
  let email = true;
  if (isAsciiAlpha(c)) {
    i++;
    c = text.charCodeAt(i);
    if (c === PLUS || c === DASH || c === DOT || isAsciiAlphanumeric(c)) {
      // A scheme of 2 to 32 characters, then `:`.
      let size = 1;
      for (;;) {
        c = text.charCodeAt(i);
        if (c === COLON) {
          i++;
          email = false;
          break;
        }
        if ((c === PLUS || c === DASH || c === DOT || isAsciiAlphanumeric(c)) && size++ < 32) i++;
        else break;
      }
    }
  } else if (c === AT) return -1;
  if (!email) {
    for (;;) {
      work.spend(1);
      c = text.charCodeAt(i);
      if (c === GREATER_THAN) return i + 1;
      if (Number.isNaN(c) || c === SPACE || c === LESS_THAN || c < SPACE || c === DELETE) return -1;
      i++;
    }
  }
  // E-mail: atext up to `@`, then labels of alphanumerics and `-` (at most 63), dot-separated.
  for (;;) {
    work.spend(1);
    c = text.charCodeAt(i);
    if (c === AT) {
      i++;
      break;
    }
    if (!isAsciiAtext(c)) return -1;
    i++;
  }
  let size = 0;
  if (!isAsciiAlphanumeric(text.charCodeAt(i))) return -1;
  for (;;) {
    work.spend(1);
    c = text.charCodeAt(i);
    // emailLabel (after an alphanumeric)
    if (c === DOT) {
      i++;
      size = 0;
      if (!isAsciiAlphanumeric(text.charCodeAt(i))) return -1;
      continue;
    }
    if (c === GREATER_THAN) return i + 1;
    // emailValue
    for (;;) {
      c = text.charCodeAt(i);
      if (!((c === DASH || isAsciiAlphanumeric(c)) && size++ < 63)) return -1;
      i++;
      if (c !== DASH) break;
    }
  }
}

/** micromark's inline HTML (tag, closing tag, comment, instruction, declaration, CDATA) at `at`: its end, or -1. */
function inlineHtml(work: WorkBudget, text: string, at: number): number {
  let i = at + 1;
  let c = text.charCodeAt(i);
  const spaceOrEnding = (code: number) => code === SPACE || code === TAB || code === LINE_FEED;
  if (c === EXCLAMATION) {
    i++;
    c = text.charCodeAt(i);
    if (c === DASH) {
      // Comment: `<!--` … `-->` (`<!-->` and `<!--->` too), micromark's three states.
      if (text.charCodeAt(i + 1) !== DASH) return -1;
      i += 2;
      let state = 2; // 0 comment, 1 commentClose, 2 commentEnd
      for (;;) {
        work.spend(1);
        c = text.charCodeAt(i);
        if (state === 0) {
          if (Number.isNaN(c)) return -1;
          i++;
          if (c === DASH) state = 1;
        } else if (state === 1) {
          if (c === DASH) {
            i++;
            state = 2;
          } else state = 0;
        } else if (c === GREATER_THAN) return i + 1;
        else state = c === DASH ? 1 : 0;
      }
    }
    if (c === LEFT_BRACKET) {
      if (!text.startsWith('CDATA[', i + 1)) return -1;
      i += 7;
      let brackets = 0;
      for (;;) {
        work.spend(1);
        c = text.charCodeAt(i);
        if (Number.isNaN(c)) return -1;
        if (c === GREATER_THAN && brackets >= 2) return i + 1;
        brackets = c === RIGHT_BRACKET ? brackets + 1 : 0;
        i++;
      }
    }
    if (isAsciiAlpha(c)) {
      // Declaration: up to `>`.
      const end = text.indexOf('>', i);
      work.spend((end === -1 ? text.length : end) - i);
      return end === -1 ? -1 : end + 1;
    }
    return -1;
  }
  if (c === QUESTION) {
    // Instruction: up to `?>`.
    const end = text.indexOf('?>', i + 1);
    work.spend((end === -1 ? text.length : end) - i);
    return end === -1 ? -1 : end + 2;
  }
  if (c === SLASH) {
    // Closing tag: `</name` spaces and line endings `>`.
    i++;
    if (!isAsciiAlpha(text.charCodeAt(i))) return -1;
    while (text.charCodeAt(i) === DASH || isAsciiAlphanumeric(text.charCodeAt(i))) i++;
    while (spaceOrEnding(text.charCodeAt(i))) i++;
    return text.charCodeAt(i) === GREATER_THAN ? i + 1 : -1;
  }
  if (!isAsciiAlpha(c)) return -1;
  // Opening tag: name, attributes, optional `/`, `>`.
  while (text.charCodeAt(i) === DASH || isAsciiAlphanumeric(text.charCodeAt(i))) i++;
  c = text.charCodeAt(i);
  if (!(c === SLASH || c === GREATER_THAN || spaceOrEnding(c))) return -1;
  for (;;) {
    work.spend(1);
    // tagOpenBetween
    c = text.charCodeAt(i);
    if (c === SLASH) return text.charCodeAt(i + 1) === GREATER_THAN ? i + 2 : -1;
    if (c === GREATER_THAN) return i + 1;
    if (spaceOrEnding(c)) {
      i++;
      continue;
    }
    if (!(c === COLON || c === UNDERSCORE || isAsciiAlpha(c))) return -1;
    // Attribute name.
    i++;
    for (;;) {
      c = text.charCodeAt(i);
      if (c === DASH || c === DOT || c === COLON || c === UNDERSCORE || isAsciiAlphanumeric(c)) i++;
      else break;
    }
    // tagOpenAttributeNameAfter
    while (spaceOrEnding(text.charCodeAt(i))) i++;
    if (text.charCodeAt(i) !== EQUALS) continue; // back to tagOpenBetween
    i++;
    // tagOpenAttributeValueBefore
    while (spaceOrEnding(text.charCodeAt(i))) i++;
    c = text.charCodeAt(i);
    if (Number.isNaN(c) || c === LESS_THAN || c === EQUALS || c === GREATER_THAN || c === BACKTICK) return -1;
    if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
      const close = text.indexOf(String.fromCharCode(c), i + 1);
      work.spend((close === -1 ? text.length : close) - i);
      if (close === -1) return -1;
      i = close + 1;
      c = text.charCodeAt(i);
      if (!(c === SLASH || c === GREATER_THAN || spaceOrEnding(c))) return -1;
      continue;
    }
    // Unquoted value.
    for (;;) {
      c = text.charCodeAt(i);
      if (Number.isNaN(c) || c === DOUBLE_QUOTE || c === SINGLE_QUOTE || c === LESS_THAN || c === EQUALS || c === BACKTICK) return -1;
      if (c === SLASH || c === GREATER_THAN || spaceOrEnding(c)) break;
      i++;
    }
  }
}

/**
 * micromark's factoryLabel at `open` (a `[`): the index of its `]`, or -1 (a `[` inside,
 * a blank label, a footnote `^`, over 999 characters, no `]`).
 */
function referenceLabelEnd(work: WorkBudget, text: string, open: number): number {
  let i = open + 1;
  if (text.charCodeAt(i) === CARET) return -1;
  let size = 0;
  let seen = false;
  for (;;) {
    work.spend(1);
    const c = text.charCodeAt(i);
    if (size > 990 || Number.isNaN(c) || c === LEFT_BRACKET) return -1;
    if (c === RIGHT_BRACKET) return seen ? i : -1;
    if (c !== LINE_FEED) {
      size++;
      if (c !== SPACE && c !== TAB) seen = true;
      if (c === BACKSLASH) {
        const d = text.charCodeAt(i + 1);
        if (d === LEFT_BRACKET || d === BACKSLASH || d === RIGHT_BRACKET) {
          i++;
          size++;
        }
      }
    }
    i++;
  }
}

function skipWhitespace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === SPACE || c === TAB || c === LINE_FEED) i++;
    else return i;
  }
}

/** The end of the code span whose opening run of `n` backticks ends at `from`, or -1. */
function findCodeClose(work: WorkBudget, text: string, from: number, n: number): number {
  let i = text.indexOf('`', from);
  while (i !== -1) {
    work.spend(1);
    let m = 1;
    while (text.charCodeAt(i + m) === BACKTICK) m++;
    if (m === n) return i + n;
    i = text.indexOf('`', i + m);
  }
  return -1;
}

/**
 * micromark's attention resolution over items[from, to) (a paragraph, or a link's
 * label), then the nodes with adjacent text merged (mdast's text nodes).
 */
function resolve(work: WorkBudget, all: Item[], from: number, to: number): ScanNode[] {
  let items = from === 0 && to === all.length ? all : all.slice(from, to);
  let hasDelims = false;
  for (const it of items) if (it.kind === ItemKind.Delim) hasDelims = true;
  if (hasDelims) items = resolveAttention(work, items === all ? all.slice() : items);
  const nodes: ScanNode[] = [];
  let last: ScanNode | undefined;
  for (const it of items) {
    if (it.kind === ItemKind.Node) {
      last = it.node!;
      nodes.push(last);
      continue;
    }
    if (it.end === it.start) continue;
    // Text, a label start that never closed, or an unmatched sequence: text.
    if (last && last.type === 'text') last.end = it.end;
    else if (it.kind === ItemKind.Suffix) continue;
    else {
      last = { type: 'text', start: it.start, end: it.end };
      nodes.push(last);
    }
  }
  return nodes;
}

function resolveAttention(work: WorkBudget, items: Item[]): Item[] {
  // Potential openers per marker in the list: a closer with none of its marker before it
  // (or anywhere) need not look back (the result is the same, without the scan).
  let starOpeners = 0;
  let underscoreOpeners = 0;
  for (const it of items) if (it.kind === ItemKind.Delim && it.open) it.marker === ASTERISK ? starOpeners++ : underscoreOpeners++;
  for (let index = 0; index < items.length; index++) {
    const closer = items[index]!;
    if (closer.kind !== ItemKind.Delim || !closer.close) continue;
    if ((closer.marker === ASTERISK ? starOpeners : underscoreOpeners) - (closer.open ? 1 : 0) <= 0) continue;
    for (let open = index - 1; open >= 0; open--) {
      work.spend(1);
      const opener = items[open]!;
      if (opener.kind !== ItemKind.Delim || !opener.open || opener.marker !== closer.marker) continue;
      const openSize = opener.end - opener.start;
      const closeSize = closer.end - closer.start;
      if ((opener.close || closer.open) && closeSize % 3 !== 0 && (openSize + closeSize) % 3 === 0) continue;
      const use = openSize > 1 && closeSize > 1 ? 2 : 1;
      const node: ScanNode = {
        type: use > 1 ? 'strong' : 'emphasis',
        start: opener.end - use,
        end: closer.start + use,
      };
      for (let k = open + 1; k < index; k++) {
        const inner = items[k]!;
        if (inner.kind === ItemKind.Delim && inner.open) inner.marker === ASTERISK ? starOpeners-- : underscoreOpeners--;
      }
      node.children = resolve(work, items, open + 1, index);
      opener.end -= use;
      closer.start += use;
      const openerLeft = opener.end > opener.start;
      const closerLeft = closer.end > closer.start;
      if (!openerLeft) opener.marker === ASTERISK ? starOpeners-- : underscoreOpeners--;
      if (!closerLeft && closer.open) closer.marker === ASTERISK ? starOpeners-- : underscoreOpeners--;
      const group = item(ItemKind.Node, node.start, node.end, node);
      work.spend(items.length - open);
      if (openerLeft && closerLeft) items.splice(open, index - open + 1, opener, group, closer);
      else if (openerLeft) items.splice(open, index - open + 1, opener, group);
      else if (closerLeft) items.splice(open, index - open + 1, group, closer);
      else items.splice(open, index - open + 1, group);
      index = open + (openerLeft ? 1 : 0);
      break;
    }
  }
  return items;
}
