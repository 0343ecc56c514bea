/**
 * The fast markdown path: marked's linear lexer gives the block and inline structure,
 * and this module maps its tokens (which carry no offsets) back to source offsets.
 *
 * Top-level token `raw`s tile the LF-normalised source, so top-level blocks are placed
 * by their running length. Inside lists and block quotes marked strips the container
 * prefixes, so every nested block is placed line by line: each line of its `raw` must
 * be found in the source at the next line, after nothing but container prefix
 * characters (`>`, spaces, list markers) and before nothing (only whitespace for the
 * last line). Inline content is read from the block's text by markdown/inline.ts
 * (micromark's own rules, for the constructs it implements) or, where it declines, from
 * marked's inline tokens, lexed for that block only: they tile the block's text, so each
 * is placed by its running length. Either way offsets go through the block's line
 * table (marked's whole `lex` is never run: its inline pass was most of its time).
 * Every placement is verified against the source bytes; anything that cannot be proven, and every
 * construct marked reads differently from CommonMark/GFM as mdast does (footnotes,
 * definitions inside containers, `~`, HTML whose block kind is ambiguous …), makes the
 * caller parse that top-level block (or list item) with mdast instead.
 */
import { Lexer } from 'marked';
import type { Token, Tokens } from 'marked';
import { normalizeLabel, scanInline } from './inline.js';
import { tooComplex } from '../core/limits.js';
import { ListTokenizer } from './lists.js';
import type { Definitions, InlineBlock, InlineNode, ScanNode } from './nodes.js';
import * as charCodes from '../core/char-codes.js';
// Module-local constants, not imported bindings, for the inner loops (why: core/char-codes.ts).
const { BACKSLASH, CARRIAGE_RETURN, GREATER_THAN, LEFT_BRACKET, LINE_FEED, RIGHT_BRACKET, SPACE, TAB } = charCodes;

/** Block-text offsets → source: the block's raw lines and where each was found. */
interface LineMap {
  /** Offset of the block text in its raw. */
  readonly at: number;
  readonly rawLineStarts: readonly number[];
  readonly starts: readonly number[];
  readonly lengths: readonly number[];
}

/** Thrown (and caught per block) when a mapping cannot be proven exact. */
class Unmapped extends Error {}
const fail = (): never => {
  throw new Unmapped();
};

/** Characters that may precede a nested block's first line on its source line. */
const FIRST_PREFIX = /^(?:[ \t>]|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$)|\[[ xX]\](?=[ \t]))*$/;
const DEFINITION_START = /^ {0,3}\[[^\]]*\]:/m;
/** A block starting with a GFM footnote definition (marked reads it as a paragraph or link definition). */
const FOOTNOTE_DEFINITION = /^ {0,3}\[\^[^\]\n]+\]:/;
/** A raw ending in a blank line. */
const BLANK_END = /\n[ \t]*\n[ \t]*$/;
const INDENTED = /^(?: {4}|\t)/;

export class MarkedMapper {
  /** The LF-normalised source. */
  readonly norm: string;
  /** Normalised indices whose `\n` came from a `\r\n` (its `\r` removed), ascending. */
  readonly #removed: number[] = [];

  constructor(
    private readonly source: string,
    private readonly from: number,
    /** Inline nodes may nest this deep (DocumentLimits.maxNestingDepth). */
    private readonly maxDepth = Infinity,
  ) {
    const body = from > 0 ? source.slice(from) : source;
    if (body.includes('\r')) {
      let norm = '';
      const pieces = body.split(/(\r\n?)/);
      for (let i = 0; i < pieces.length; i++) {
        const piece = pieces[i]!;
        if (i % 2 === 1) {
          if (piece === '\r\n') this.#removed.push(norm.length);
          norm += '\n';
        } else norm += piece;
      }
      this.norm = norm;
    } else this.norm = body;
  }

  /** Original offset of a normalised offset. */
  orig(n: number): number {
    const removed = this.#removed;
    if (removed.length === 0) return this.from + n;
    let lo = 0;
    let hi = removed.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (removed[mid]! < n) lo = mid + 1;
      else hi = mid;
    }
    return this.from + n + lo;
  }

  /** marked's lexer: block tokens only; a block's inline tokens are lexed when markdown/inline.ts cannot read it. */
  #lexer = new Lexer({ gfm: true, tokenizer: new ListTokenizer() });
  /** The document may define link references (`]:` somewhere): brackets may be references. */
  #references = false;
  /** The labels it may define, for markdown/inline.ts. */
  #definitions: Definitions = new Set();

  /** Top-level tokens, or null when their raws do not tile the source (then mdast reads it all). */
  #tokens: Token[] | null = null;

  /**
   * Lexes the document's blocks. Returns the labels of every reference and footnote
   * definition as definitions, for mdast fallbacks (which parse a part of the document).
   */
  lex(): string {
    const lexer = this.#lexer;
    const tokens = lexer.blockTokens(this.norm, lexer.tokens);
    this.#references = this.norm.includes(']:');
    let offset = 0;
    const definitionStarts = new Set<number>();
    /** Top-level code and HTML blocks: [start, end) pairs (no definition inside). */
    const literal: number[] = [];
    for (const token of tokens) {
      if (!this.norm.startsWith(token.raw, offset)) return '';
      if (token.type === 'def') definitionStarts.add(offset + token.raw.indexOf('['));
      else if (token.type === 'code' || token.type === 'html') literal.push(offset, offset + token.raw.length);
      offset += token.raw.length;
    }
    if (offset !== this.norm.length) return '';
    this.#definitions = this.#references ? definedLabels(this.norm, definitionStarts, literal) : new Set();
    this.#tokens = tokens;
    const labels = new Set(Object.keys(lexer.tokens.links));
    if (this.#references) for (const match of this.norm.matchAll(/^ {0,3}\[\^([^\]\n]+)\]:/gm)) labels.add(`^${match[1]}`);
    return [...labels].map((label) => `[${label.replace(/[[\]]/g, '\\$&')}]: #`).join('\n');
  }

  /**
   * Gives every block to `emit`, in document order, as soon as its top-level block (or
   * list item) is proven (so a block's objects die young, and none is kept for the whole
   * document). Call after lex().
   */
  map(emit: (block: InlineBlock) => void): void {
    const tokens = this.#tokens;
    if (!tokens) {
      emit({ type: 'fallback', start: this.orig(0), end: this.source.length });
      return;
    }
    let offset = 0;
    for (let k = 0; k < tokens.length; k++) {
      const token = tokens[k]!;
      const start = offset;
      offset += token.raw.length;
      if (token.type === 'list') this.#list(token as Tokens.List, start, offset, emit);
      else if (this.#references && FOOTNOTE_DEFINITION.test(token.raw)) {
        // A GFM footnote definition (a link definition to marked) holds what follows it up
        // to a blank line, and after one every line indented by four: mdast reads them all.
        let blank = BLANK_END.test(token.raw);
        let end = offset;
        let at = offset;
        let j = k + 1;
        for (; j < tokens.length; j++) {
          const next = tokens[j]!;
          if (next.type === 'space') blank = true;
          else if (blank && !INDENTED.test(next.raw)) break;
          else blank = BLANK_END.test(next.raw);
          at += next.raw.length;
          if (next.type !== 'space') {
            end = at;
            k = j;
          }
        }
        offset = end;
        emit({ type: 'fallback', start: this.orig(start), end: this.orig(end) });
      } else this.#unit(token, start, offset, emit, false);
    }
  }

  /** Blocks of the unit being mapped (reused), given out once it is proven. */
  readonly #out: InlineBlock[] = [];

  /**
   * Maps one unit (a top-level token, or a list item's tokens when `item`) over the
   * normalised range [start, end): its blocks, or one fallback for the range.
   */
  #unit(token: Token | readonly Token[], start: number, end: number, emit: (block: InlineBlock) => void, item: boolean): void {
    const out = this.#out;
    out.length = 0;
    try {
      this.#children(item ? (token as readonly Token[]) : [token as Token], start, end, out, item, 0);
    } catch (error) {
      if (!(error instanceof Unmapped)) throw error;
      out.length = 0;
      emit({ type: 'fallback', start: this.orig(start), end: this.orig(end) });
      return;
    }
    for (let i = 0; i < out.length; i++) emit(out[i]!);
    out.length = 0;
  }

  /** A top-level list: each item on its own, so a fallback costs one item, not the whole list. */
  #list(list: Tokens.List, start: number, end: number, emit: (block: InlineBlock) => void): void {
    const items = list.items;
    let cursor = start;
    for (const item of items) {
      if (!this.norm.startsWith(item.raw, cursor)) {
        // Items do not tile the list: the whole list is one block.
        this.#unit(list, start, end, emit, false);
        return;
      }
      cursor += item.raw.length;
    }
    cursor = start;
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      const itemStart = cursor;
      const itemEnd = (cursor += item.raw.length);
      // The last item's raw may stop before the list's trailing line ending.
      this.#unit(item.tokens, itemStart, i === items.length - 1 ? end : itemEnd, emit, true);
    }
  }

  /**
   * Places `tokens` (siblings, in order) inside the normalised range [from, to) line by
   * line and emits their inline blocks. `nested` means their raws are de-indented
   * copies of the source (inside a list item or block quote).
   */
  #children(tokens: readonly Token[], from: number, to: number, out: InlineBlock[], nested: boolean, quotes: number): number {
    let cursor = from;
    for (const token of tokens) {
      switch (token.type) {
        case 'space':
        case 'checkbox': // a task item's `[ ]` (not part of the paragraph in mdast)
          continue;
        case 'list':
          for (const item of (token as Tokens.List).items) {
            cursor = this.#children(item.tokens, cursor, to, out, true, quotes);
          }
          continue;
        case 'blockquote':
          cursor = this.#children((token as Tokens.Blockquote).tokens, cursor, to, out, true, quotes + 1);
          continue;
      }
      const lines = this.#place(token.raw, cursor, to, quotes);
      if (!lines) continue;
      cursor = lines.end;
      this.#leaf(token, lines, out, nested);
    }
    return cursor;
  }

  /**
   * Finds each line of `raw` in the source from `cursor`: the first after container
   * prefix characters (blank or prefix-only lines skipped), every other on the next
   * source line after `>`/spaces only, each ending its source line (the last may be
   * followed by spaces). Returns the normalised start of every line, or throws.
   */
  #place(raw: string, cursor: number, to: number, quotes: number): { starts: number[]; lengths: number[]; end: number } | null {
    const lines = raw.indexOf('\n') === -1 ? [raw] : raw.split('\n');
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    if (lines.length === 0) return null;
    const norm = this.norm;
    const starts: number[] = [];
    const lengths: number[] = [];
    let pos = cursor;
    // First line.
    const first = lines[0]!;
    for (;;) {
      if (pos >= to) fail();
      let lineEnd = norm.indexOf('\n', pos);
      if (lineEnd === -1 || lineEnd > to) lineEnd = to;
      let found = -1;
      for (let at = norm.indexOf(first, pos); at !== -1 && at + first.length <= lineEnd; at = norm.indexOf(first, at + 1)) {
        if (at > pos && !FIRST_PREFIX.test(norm.slice(pos, at))) break;
        const restStart = at + first.length;
        if (restStart === lineEnd || (lines.length === 1 && blank(norm, restStart, lineEnd))) {
          found = at;
          break;
        }
      }
      if (found !== -1) {
        if (quotes > 0) this.#quoted(found, quotes);
        starts.push(found);
        lengths.push(first.length);
        pos = found + first.length;
        break;
      }
      if (!FIRST_PREFIX.test(norm.slice(pos, lineEnd)) || lineEnd >= to) fail();
      pos = lineEnd + 1;
    }
    for (let k = 1; k < lines.length; k++) {
      if (norm.charCodeAt(pos) !== LINE_FEED) fail();
      const lineStart = pos + 1;
      let lineEnd = norm.indexOf('\n', lineStart);
      if (lineEnd === -1 || lineEnd > to) lineEnd = to;
      const line = lines[k]!;
      let at: number;
      if (k < lines.length - 1 || line === '') {
        at = lineEnd - line.length;
        if (at < lineStart || !norm.startsWith(line, at)) fail();
      } else {
        at = norm.indexOf(line, lineStart);
        if (at === -1 || at + line.length > lineEnd || !blank(norm, at + line.length, lineEnd)) fail();
      }
      for (let i = lineStart; i < at; i++) {
        const c = norm.charCodeAt(i);
        if (c !== SPACE && c !== TAB && c !== GREATER_THAN) fail();
      }
      if (quotes > 0) this.#quoted(at, quotes);
      starts.push(at);
      lengths.push(line.length);
      pos = at + line.length;
    }
    return { starts, lengths, end: pos };
  }

  /**
   * A line inside `quotes` block quotes must carry that many `>`: marked ends a quoted
   * paragraph at a lazy continuation line that CommonMark keeps in it.
   */
  #quoted(at: number, quotes: number): void {
    const lineStart = this.norm.lastIndexOf('\n', at - 1) + 1;
    let count = 0;
    for (let i = lineStart; i < at; i++) if (this.norm.charCodeAt(i) === GREATER_THAN) count++;
    if (count < quotes) fail();
  }

  #leaf(token: Token, lines: { starts: number[]; lengths: number[] }, out: InlineBlock[], nested: boolean): void {
    const raw = token.raw;
    switch (token.type) {
      case 'paragraph':
      case 'text': {
        const text = (token as Tokens.Paragraph).text;
        const inline = (token as Tokens.Paragraph).tokens;
        if (!inline) fail();
        if (nested && this.#references && DEFINITION_START.test(raw)) fail();
        if (!raw.startsWith(text)) fail();
        out.push({ type: 'paragraph', children: this.#inlineBlock(inline as Token[], text, 0, raw, lines) });
        return;
      }
      case 'heading': {
        const heading = token as Tokens.Heading;
        const at = raw.indexOf(heading.text);
        if (at < 0 || !/^ {0,3}(?:#{1,6}[ \t]+)?$/.test(raw.slice(0, at))) fail();
        out.push({ type: 'heading', depth: heading.depth, children: this.#inlineBlock(heading.tokens as Token[], heading.text, at, raw, lines) });
        return;
      }
      case 'table':
        this.#table(token as Tokens.Table, lines, out);
        return;
      case 'html': {
        if (raw.startsWith('<!--')) {
          // Kind 2, a comment: it ends on the line holding the first `-->` (for marked and
          // CommonMark alike), which must be the token's last line.
          const close = raw.indexOf('-->', 2);
          if (close === -1 || raw.slice(close).trimEnd().includes('\n')) fail();
        } else {
          // Kinds 1 and 3–5 end on their own terms; marked and micromark agree on 6 (block tags).
          if (!/^ {0,3}<\/?[A-Za-z][A-Za-z0-9-]*(?:[\s/>]|$)/.test(raw) || /^ {0,3}<(?:script|pre|style|textarea)\b/i.test(raw)) fail();
          const tag = /^ {0,3}<\/?([A-Za-z][A-Za-z0-9-]*)/.exec(raw)![1]!.toLowerCase();
          if (!HTML_BLOCK_NAMES.has(tag)) fail();
        }
        const last = lines.starts.length - 1;
        const start = this.orig(lines.starts[0]!);
        const end = this.orig(lines.starts[last]! + lines.lengths[last]!);
        out.push({ type: 'html', start, end });
        return;
      }
      case 'def':
        // `[^x]: …` is a footnote definition (with a paragraph) to mdast, a link definition to marked.
        if (/^ {0,3}\[\^/.test(raw)) fail();
        if ((token as Tokens.Def).title) {
          const last = lines.starts.length - 1;
          out.push({ type: 'definition', start: this.orig(lines.starts[0]!), end: this.orig(lines.starts[last]! + lines.lengths[last]!) });
        }
        return;
      case 'code':
      case 'hr':
        return;
      default:
        fail();
    }
  }

  /**
   * A block's inline nodes in source offsets, read by markdown/inline.ts (`text` is found
   * at `at` in `raw`); a block it declines goes to mdast.
   */
  #inlineBlock(tokens: Token[], text: string, at: number, raw: string, lines: { starts: number[]; lengths: number[] }): InlineNode[] {
    // Line table of `raw`: normalised source start of each raw line.
    const rawLineStarts: number[] = [0];
    for (let i = raw.indexOf('\n'); i !== -1; i = raw.indexOf('\n', i + 1)) rawLineStarts.push(i + 1);
    const map: LineMap = { at, rawLineStarts, starts: lines.starts, lengths: lines.lengths };
    // markdown/inline.ts reads the block, or mdast does (marked's inline lexer, once a
    // middle step here, produced nodes for no block of the real-world corpus).
    const nodes = this.#scan(tokens, text, map) ?? fail();
    return trimEdges(nodes, this.source);
  }

  /** markdown/inline.ts's reading of `text` in source offsets, or null. */
  #scan(tokens: Token[], text: string, map: LineMap): InlineNode[] | null {
    // A loose task item's paragraph starts with its checkbox token (already in `tokens`).
    const checkbox = tokens.length > 0 && tokens[0]!.type === 'checkbox' ? tokens[0]!.raw : '';
    if (tokens.length > (checkbox ? 1 : 0) || (checkbox && !text.startsWith(checkbox))) return null;
    const nodes = scanInline(text, checkbox.length, this.#definitions);
    if (!nodes) return null;
    this.#mapScan(nodes, map);
    return nodes;
  }

  #mapScan(nodes: ScanNode[], map: LineMap, depth = 1): void {
    if (depth > this.maxDepth) throw tooComplex('the nesting of emphasis, links and images', this.maxDepth);
    for (const node of nodes) {
      node.start = this.#startOf(map, node.start);
      node.end = this.#endOf(map, node.end);
      if (node.children) this.#mapScan(node.children, map, depth + 1);
    }
  }

  /** Normalised source offset of block-text offset `t`. */
  #map(map: LineMap, t: number): number {
    const r = map.at + t;
    const rawLineStarts = map.rawLineStarts;
    let lo = 0;
    let hi = rawLineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (rawLineStarts[mid]! <= r) lo = mid;
      else hi = mid - 1;
    }
    if (lo >= map.starts.length) fail();
    const column = r - rawLineStarts[lo]!;
    if (column > map.lengths[lo]!) fail();
    return map.starts[lo]! + column;
  }

  #startOf(map: LineMap, a: number): number {
    return this.orig(this.#map(map, a));
  }

  #endOf(map: LineMap, b: number): number {
    return this.orig(this.#map(map, b - 1) + 1);
  }

  #table(table: Tokens.Table, lines: { starts: number[]; lengths: number[] }, out: InlineBlock[]): void {
    const rows = [table.header, ...table.rows];
    if (lines.starts.length !== rows.length + 1) fail();
    for (const [index, row] of rows.entries()) {
      const line = index === 0 ? 0 : index + 1;
      const lineStart = lines.starts[line]!;
      const lineEnd = lineStart + lines.lengths[line]!;
      let col = lineStart;
      for (const [c, cell] of row.entries()) {
        const lead = /^[ \t]*(\|?)[ \t]*/.exec(this.norm.slice(col, lineEnd))!;
        if (c > 0 && lead[1] !== '|') fail();
        const at = col + lead[0].length;
        if (cell.text === '') {
          col = at;
          continue;
        }
        if (!this.norm.startsWith(cell.text, at) || at + cell.text.length > lineEnd) fail();
        if (cell.text.includes('|')) fail();
        const map: LineMap = { at: 0, rawLineStarts: [0], starts: [at], lengths: [cell.text.length] };
        // (marked may have lexed the cell's inline tokens already; the reader reads the text itself.)
        const nodes = this.#scan([], cell.text, map) ?? fail();
        out.push({ type: 'tableCell', children: trimEdges(nodes, this.source) });
        col = at + cell.text.length;
      }
      if (!/^[ \t]*\|?[ \t]*$/.test(this.norm.slice(col, lineEnd))) fail();
    }
  }
}

const HTML_BLOCK_NAMES = new Set(
  'address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead title tr track ul'.split(
    ' ',
  ),
);

const space = (c: number) => c === SPACE || c === TAB || c === LINE_FEED || c === CARRIAGE_RETURN;

/** What may precede a block on its line: indentation, `>`, list markers. */
const CONTAINER_PREFIX = /^(?:[ \t>]|[-+*](?=[ \t])|\d{1,9}[.)](?=[ \t]))*$/;

/**
 * The labels of the document's link reference definitions (normalised as micromark
 * does), when every `[label]:` that opens a line (after container markers) is one of
 * marked's top-level definitions (`definitionStarts`) or lies in a top-level code or
 * HTML block (`literal`); otherwise 'unknown' (a definition in a container, a label over
 * lines or longer than 999 characters …). Footnote labels (`[^x]:`) are not link labels.
 */
function definedLabels(norm: string, definitionStarts: ReadonlySet<number>, literal: readonly number[]): Definitions {
  const labels = new Set<string>();
  const ends = new Set<number>();
  for (const match of norm.matchAll(/\[((?:[^[\]\\\n]|\\[^\n]){1,999})\]:/g)) {
    const at = match.index;
    ends.add(at + match[0].length - 2);
    if (match[1]!.startsWith('^')) continue;
    if (definitionStarts.has(at)) {
      labels.add(normalizeLabel(match[1]!));
      continue;
    }
    // A definition opens its line: after anything but container markers it is none.
    const lineStart = norm.lastIndexOf('\n', at - 1) + 1;
    if (!CONTAINER_PREFIX.test(norm.slice(lineStart, at))) continue;
    // In a code or HTML block (ranges in order): the last one starting at or before it.
    let lo = 0;
    let hi = literal.length / 2;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (literal[2 * mid]! <= at) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0 || at >= literal[2 * (lo - 1) + 1]!) return 'unknown';
  }
  for (let at = norm.indexOf(']:'); at !== -1; at = norm.indexOf(']:', at + 2)) {
    if (ends.has(at)) continue;
    // Not read above: no label if a `]` comes first going back (a label holds none
    // unescaped) or the `[` is right there (`[npm][]:`: a label is not blank); else
    // (a `[` further back, a line break) it may be one.
    let k = at - 1;
    while (k >= 0 && (norm.charCodeAt(k) === SPACE || norm.charCodeAt(k) === TAB)) k--;
    if (norm.charCodeAt(k) === LEFT_BRACKET) continue;
    for (; k >= 0; k--) {
      const c = norm.charCodeAt(k);
      if ((c === RIGHT_BRACKET || c === LEFT_BRACKET) && norm.charCodeAt(k - 1) !== BACKSLASH) break;
      if (c === LINE_FEED) return 'unknown';
    }
    if (k < 0 || norm.charCodeAt(k) === LEFT_BRACKET) return 'unknown';
  }
  return labels;
}

/** Only spaces and tabs in text[from, to). */
function blank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== TAB) return false;
  }
  return true;
}

/** mdast's inline content starts and ends at non-whitespace: trim the edge text nodes. */
function trimEdges(nodes: InlineNode[], source: string): InlineNode[] {
  while (nodes.length > 0 && nodes[0]!.type === 'text') {
    const node = nodes[0]!;
    let s = node.start;
    while (s < node.end && space(source.charCodeAt(s))) s++;
    if (s < node.end) {
      nodes[0] = { type: 'text', start: s, end: node.end };
      break;
    }
    nodes.shift();
  }
  while (nodes.length > 0 && nodes[nodes.length - 1]!.type === 'text') {
    const node = nodes[nodes.length - 1]!;
    let e = node.end;
    while (e > node.start && space(source.charCodeAt(e - 1))) e--;
    if (e > node.start) {
      nodes[nodes.length - 1] = { type: 'text', start: node.start, end: e };
      break;
    }
    nodes.pop();
  }
  return nodes;
}
