/**
 * Markdown with mdast (micromark + GFM + front matter), whose nodes carry source
 * offsets. Segments are the inline content of paragraphs, headings and table cells;
 * emphasis, strong, delete and links are pairs whose tokens are the original delimiter
 * bytes; inline code, images, inline HTML, hard breaks and footnote references are
 * atoms. Image alt and link titles are `attr` segments spliced inside their token bytes.
 * HTML blocks follow the html adapter's rules. mdast is quadratic on long lists
 * (docs/engine-notes.md a7), so input over GROUP_SIZE is pre-split with marked's linear lexer.
 * Segments stream into the template's DocumentBuilder (markdownDrafts collects the same
 * calls as SegmentDraft objects, for tests and benches).
 */
import { decodeHTMLStrict } from 'entities/decode';
import type { Nodes, PhrasingContent, Root, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import type { FormatAdapter } from '../format.js';
import { DEFAULT_DOCUMENT_LIMITS, tooComplex } from '../core/limits.js';
import type { DocumentLimits } from '../core/limits.js';
import { markdownEscaper } from './escapes.js';
import { htmlDrafts } from '../html/adapter.js';
import { DraftCollector } from '../core/segment-sink.js';
import { PlaceholderScanner } from '../core/placeholders.js';
import type { TextRun } from '../core/placeholders.js';
import { MarkedMapper } from './blocks.js';
import { checkContainers } from './nesting.js';
import type { InlineBlock, InlineNode } from './nodes.js';
import type { SegmentKind } from '../../segments/segment.js';
import { ATOM, CLOSE, DocumentBuilder, newPairId, OPEN } from '../core/document.js';
import type { Escaper, SegmentDraft } from '../core/document.js';
import * as charCodes from '../core/char-codes.js';
// Module-local constants, not imported bindings, for the inner loops (why: core/char-codes.ts).
const { CARRIAGE_RETURN, DELETE, FORM_FEED, GREATER_THAN, LEFT_BRACKET, LINE_FEED, SPACE, TAB, VERTICAL_TAB } = charCodes;

/**
 * Documents up to this size are parsed whole by mdast (the reference reading, a few ms);
 * larger ones take the marked path (markdown/blocks.ts), with mdast only for the blocks
 * that path cannot prove exact.
 */
export const GROUP_SIZE = 4 * 1024;

/**
 * What the marked path may hand to mdast, in characters weighted by size (a block of
 * FALLBACK_QUADRATIC characters counts twice): mdast parses ~0.15–1.5 MB/s and goes
 * quadratic on big blocks (64 KiB of lazy lines in a block quote took 1.6–3 s, 128 KiB
 * 4.2 s). The real-world bench's largest is far below (docs/formats.md).
 */
const FALLBACK_QUADRATIC = 4 * 1024;
const MAX_FALLBACK_WORK = 1024 * 1024;

const FRONT_MATTER = /^---[ \t]*\r?\n(?:[\s\S]*?\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

const DECODE_NEEDED = /[\\&\n]/;

/** Text of a text node as a reader sees it: escapes and entities resolved, line prefixes dropped. */
function decodeText(raw: string): string {
  if (!DECODE_NEEDED.test(raw)) return raw;
  return raw.replace(
    /\\([!-/:-@[-`{-~])|&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});|[ \t]*\r?\n[ \t>]*/g,
    (match, escaped: string | undefined) => {
      if (escaped !== undefined) return escaped;
      if (match.startsWith('&')) return decodeHTMLStrict(match);
      return '\n';
    },
  );
}

/**
 * mdast-util-from-markdown's GFM extensions without mdast-util-gfm-autolink-literal's
 * pass over text nodes: it turns e-mails and URLs that micromark left as text (inside an
 * emphasis, after a `[` …) into links without source offsets, which no segment can hold
 * (it cut bytes out of renders). Those stay text here, where placeholder masking keeps
 * URLs and e-mails as atoms anyway. Literal autolinks micromark reads itself keep
 * their offsets.
 */
const MDAST_EXTENSIONS = gfmFromMarkdown().map((extension) =>
  extension.enter && 'literalAutolink' in extension.enter ? Object.assign({}, extension, { transforms: [] }) : extension,
);

/** Markdown text runs: escapes and references decoded (decodeText). */
const MARKDOWN_TEXT: TextRun = { inSource: true, decode: decodeText };

/** The mdast reading of `text` (GFM and YAML front matter). */
export function mdastTree(text: string): Root {
  return fromMarkdown(text, {
    extensions: [gfm(), frontmatter(['yaml'])],
    mdastExtensions: [...MDAST_EXTENSIONS, frontmatterFromMarkdown(['yaml'])],
  });
}

interface Group {
  readonly start: number;
  readonly end: number;
}

/** Runs of 0 to 64 spaces, made at load (a constant table). */
const SPACES: readonly string[] = Array.from({ length: 65 }, (_, length) => ' '.repeat(length));

/** The continuation prefix of the line a block starts on: `>` kept, list markers as spaces. */
function linePrefix(source: string, start: number): string {
  const lineStart = source.lastIndexOf('\n', start - 1) + 1;
  if (lineStart === start) return '';
  for (let i = lineStart; i < start; i++) {
    const c = source.charCodeAt(i);
    if (c === GREATER_THAN || c === TAB) return source.slice(lineStart, start).replace(/[^>\t]/g, ' ');
  }
  // Only spaces and list markers (the common case): as many spaces.
  const length = start - lineStart;
  return length < SPACES.length ? SPACES[length]! : ' '.repeat(length);
}

const inlineEscape = markdownEscaper({ newline: ' ' });
const headingEscape = markdownEscaper({ newline: ' ', heading: true });
const cellEscape = markdownEscaper({ newline: ' ', table: true });
const titleEscapes: Record<string, Escaper> = {
  '"': markdownEscaper({ newline: ' ', titleClose: '"' }),
  "'": markdownEscaper({ newline: ' ', titleClose: "'" }),
  ')': markdownEscaper({ newline: ' ', titleClose: ')' }),
};

/**
 * Where segments go: the template's DocumentBuilder (the adapter: no draft or part
 * objects), or SegmentDrafts (markdownDrafts). Tokens come in order and pairs complete
 * (an open, then its close), as the builder requires.
 */
interface MarkdownSink {
  begin(start: number, end: number, kind: SegmentKind, escape: Escaper, ctx?: string, singleLine?: boolean, bidiInside?: boolean): void;
  /** Decoded text. */
  text(value: string): void;
  /** A segment mark whose bytes are `source[start, end)` (ATOM, or OPEN/CLOSE linked by `pair`). */
  mark(kind: number, start: number, end: number, pair: number): void;
  commit(): unknown;
  /** A whole draft (HTML inside markdown, from the html adapter). */
  add(draft: SegmentDraft): void;
}

/** A document's link reference definitions, each line with its label as micromark compares it. */
export type Definitions = readonly { readonly label: string; readonly line: string }[];

/** `definitions` (marked's labels as `[label]: #`, one a line), read once per document. */
export function parseDefinitions(definitions: string): Definitions {
  if (!definitions) return [];
  return definitions.split('\n').map((line) => ({
    label: line.slice(1, line.lastIndexOf(']:')).replace(/\\([[\]])/g, '$1').toLowerCase().toUpperCase(),
    line,
  }));
}

/**
 * The lines of `definitions` whose label `text` mentions. Appending all of them to every
 * fallback parse made its cost grow with blocks x definitions: Node's deprecations.md
 * (108 KiB, hundreds of `[label]: url` lines, many fallback blocks) took seconds. A label
 * matched by mistake only adds a line; labels are compared as micromark matches them
 * (lower- then upper-cased, so `ß` meets `SS`; white space collapsed).
 */
export function definitionsUsedBy(text: string, definitions: Definitions): string {
  if (definitions.length === 0) return '';
  const mentioned = text.toLowerCase().toUpperCase().replace(/\s+/g, ' ');
  return definitions
    .filter(({ label }) => mentioned.includes(label))
    .map(({ line }) => line)
    .join('\n');
}

function findAltEnd(source: string, from: number, to: number): number {
  let depth = 0;
  for (let i = from; i < to; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (c === '[') depth++;
    else if (c === ']') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

type Title = { start: number; end: number; close: string };

/** The title's inner range inside a link/image destination part `…"title")`, or null. */
function findTitle(source: string, from: number, to: number): Title | null {
  return source[to - 1] === ')' ? titleEndingBy(source, from, to - 2, false) : null;
}

/** The title's inner range at the end of a reference definition `[label]: url "title"`, or null. */
function definitionTitle(source: string, start: number, end: number): Title | null {
  // A title is set off from the destination by white space.
  return titleEndingBy(source, start, end - 1, true);
}

/**
 * A title whose closing `"`, `'` or `)` is the last non-blank character at or before `k`,
 * opened after `from` by its quote or `(` with no backslash before it; `setOff`: with
 * white space before the opening.
 */
function titleEndingBy(source: string, from: number, k: number, setOff: boolean): Title | null {
  while (k > from && /\s/.test(source[k]!)) k--;
  const close = source[k];
  if (close !== '"' && close !== "'" && close !== ')') return null;
  const open = close === ')' ? '(' : close;
  for (let j = k - 1; j > from; j--) {
    if (source[j] === open && source[j - 1] !== '\\') {
      return (!setOff || /\s/.test(source[j - 1]!)) && j + 1 < k ? { start: j + 1, end: k, close } : null;
    }
  }
  return null;
}

const HTML_OPEN = /^<([A-Za-z][A-Za-z0-9-]*)(?:\s[^>]*)?>$/;
const HTML_CLOSE = /^<\/([A-Za-z][A-Za-z0-9-]*)\s*>$/;
const HTML_VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
// (`kbd` is translated: keys are localised, Ctrl is Strg in German.)
const HTML_ATOMIC = new Set(['code', 'samp', 'var', 'svg', 'math', 'script', 'style']);

/** An attribute segment found inside a block segment, given after that one is committed. */
type PendingAttr = { readonly start: number; readonly end: number; readonly ctx: string; readonly escape: Escaper } | SegmentDraft;

class MarkdownExtractor {
  readonly eol: string;
  #base = 0;
  #limit = 0;
  readonly #pending: PendingAttr[] = [];
  /** The document's placeholders, HTML blocks and inline HTML included. */
  readonly placeholders = new PlaceholderScanner();
  /**
   * Escapers are pure functions of their place: one per distinct paragraph line prefix of
   * this document, up to 256 (a hostile document may have a prefix per line).
   */
  readonly #paragraphEscapes = new Map<string, Escaper>();

  constructor(
    private readonly source: string,
    private readonly sink: MarkdownSink,
    /** Inline nodes (emphasis in emphasis, links in images …) may nest this deep. */
    private readonly maxDepth: number,
  ) {
    this.eol = source.includes('\r\n') ? '\r\n' : '\n';
  }

  /** Characters of the mdast fallbacks, weighted by their cost (FALLBACK_WORK). */
  fallbackWork = 0;

  #paragraphEscape(newline: string): Escaper {
    let escape = this.#paragraphEscapes.get(newline);
    if (!escape) {
      escape = markdownEscaper({ newline, lineStart: true });
      if (this.#paragraphEscapes.size < 256) this.#paragraphEscapes.set(newline, escape);
    }
    return escape;
  }

  parseGroup(group: Group, definitions: Definitions, charge = false): void {
    const text = this.source.slice(group.start, group.end);
    if (charge) {
      // micromark is slow on big blocks (lazy lines and long paragraphs go quadratic):
      // a document that would need too much of it is refused, not parsed for minutes.
      this.fallbackWork += text.length * (1 + text.length / FALLBACK_QUADRATIC);
      if (this.fallbackWork > MAX_FALLBACK_WORK) throw tooComplex('the markdown the fast reader cannot prove', MAX_FALLBACK_WORK);
    }
    const used = definitionsUsedBy(text, definitions);
    const tree = mdastTree(used ? `${text}\n\n${used}\n` : text);
    this.#base = group.start;
    this.#limit = text.length;
    this.#blocks(tree.children);
  }

  #start(node: Nodes): number {
    return this.#base + (node.position?.start.offset ?? 0);
  }

  #end(node: Nodes): number {
    return this.#base + (node.position?.end.offset ?? 0);
  }

  #inGroup(node: Nodes): boolean {
    return node.position !== undefined && (node.position.start.offset ?? 0) < this.#limit;
  }

  #blocks(nodes: readonly RootContent[]): void {
    for (const node of nodes) {
      if (!this.#inGroup(node)) continue;
      switch (node.type) {
        case 'paragraph':
        case 'heading':
        case 'tableCell':
          this.inlineBlock({ type: node.type, depth: node.type === 'heading' ? node.depth : undefined, children: this.#nodes(node.children) } as InlineBlock);
          break;
        case 'html':
          this.inlineBlock({ type: 'html', start: this.#start(node), end: this.#end(node) });
          break;
        case 'definition':
          if (node.title) this.inlineBlock({ type: 'definition', start: this.#start(node), end: this.#end(node) });
          break;
        case 'code':
        case 'yaml':
        case 'thematicBreak':
          break;
        default:
          if ('children' in node) this.#blocks(node.children as RootContent[]);
      }
    }
  }

  /** mdast phrasing nodes as InlineNodes (the shape the marked path produces too). */
  #nodes(nodes: readonly PhrasingContent[], depth = 1): InlineNode[] {
    if (depth > this.maxDepth) throw tooComplex('the nesting of emphasis, links and images', this.maxDepth);
    const out: InlineNode[] = [];
    for (const node of nodes) {
      const start = this.#start(node);
      const end = this.#end(node);
      switch (node.type) {
        case 'emphasis':
        case 'strong':
        case 'delete':
          out.push({ type: node.type, start, end, children: this.#nodes(node.children, depth + 1) });
          break;
        case 'link':
          out.push({ type: this.source[start] === '[' ? 'link' : 'autolink', start, end, children: this.#nodes(node.children, depth + 1), title: Boolean(node.title) });
          break;
        case 'linkReference':
          out.push({ type: 'linkReference', start, end, children: this.#nodes(node.children, depth + 1), full: node.referenceType === 'full' });
          break;
        case 'image':
          out.push({ type: 'image', start, end, title: Boolean(node.title) });
          break;
        case 'imageReference':
          out.push({ type: 'imageReference', start, end, full: node.referenceType === 'full' });
          break;
        case 'html':
          out.push({ type: 'html', start, end, value: node.value });
          break;
        default:
          out.push({ type: node.type, start, end });
      }
    }
    return out;
  }

  /** Emits the segments of one block (from either parser). */
  inlineBlock(block: InlineBlock): void {
    switch (block.type) {
      case 'paragraph': {
        const first = block.children[0];
        if (!first) return;
        const prefix = linePrefix(this.source, first.start);
        const children = prefix.includes('>') ? alertMarkerAtom(this.source, block.children) : block.children;
        this.#inline(children, 'block', undefined, this.#paragraphEscape(this.eol + prefix), false);
        return;
      }
      case 'heading':
        this.#inline(block.children, 'heading', HEADING_CTX[block.depth!] ?? `h${block.depth}`, headingEscape, true);
        return;
      case 'tableCell':
        this.#inline(block.children, 'cell', 'table cell', cellEscape, true);
        return;
      case 'html': {
        const quoteDepth = quoteDepthAt(this.source, block.start);
        const { drafts } = htmlDrafts(this.source, block.start, block.end, { directionPatches: false, inMarkdown: true, quoteDepth, placeholders: this.placeholders });
        for (const draft of drafts) this.sink.add(draft);
        return;
      }
      case 'definition': {
        // Its label and URL stay; its title is shown as a tooltip, like a link's.
        const title = definitionTitle(this.source, block.start, block.end);
        if (!title) return;
        this.sink.begin(title.start, title.end, 'attr', titleEscapes[title.close]!, 'definition@title', true, false);
        this.#text(title.start, title.end);
        this.sink.commit();
        return;
      }
      case 'fallback':
        return;
    }
  }

  #inline(children: readonly InlineNode[], kind: SegmentKind, ctx: string | undefined, escape: Escaper, singleLine: boolean): void {
    const first = children[0];
    const last = children[children.length - 1];
    if (!first || !last) return;
    const start = first.start;
    const end = last.end;
    this.sink.begin(start, end, kind, escape, ctx, singleLine, true);
    this.#phrasing(children, start, end);
    this.sink.commit();
    // Attribute segments inside this one (image alt, titles, inline HTML attributes).
    const pending = this.#pending;
    if (pending.length === 0) return;
    for (const attr of pending) {
      if ('parts' in attr) this.sink.add(attr);
      else {
        this.sink.begin(attr.start, attr.end, 'attr', attr.escape, attr.ctx, true, false);
        this.#text(attr.start, attr.end);
        this.sink.commit();
      }
    }
    pending.length = 0;
  }

  /** The tokens and text for `nodes`, which together cover `[from, to)`; gaps become text or atoms. */
  #phrasing(nodes: readonly InlineNode[], from: number, to: number): void {
    const sink = this.sink;
    const pairs = htmlPairs(nodes);
    const source = this.source;
    let cursor = from;
    let afterText = false;
    for (let index = 0; index < nodes.length; index++) {
      const node = nodes[index]!;
      let start = node.start;
      let end = node.end;
      if (start > cursor) this.#gap(cursor, start, afterText);
      else if (start < cursor && node.type === 'text') start = Math.min(cursor, end);
      afterText = node.type === 'text';
      if (node.type === 'break' && source.charCodeAt(end - 1) === LINE_FEED) {
        // The next line's prefix (indentation, `>`) is part of the break's bytes: the
        // translation after it is not indented, and the prefix comes back once. (A text
        // run read from marked's tokens may start with the line's indentation.)
        const next = nodes[index + 1];
        const limit = next ? next.start : to;
        while (end < limit && isPrefixChar(source.charCodeAt(end))) end++;
        if (next && next.type === 'text' && end === next.start) {
          while (end < next.end && (source.charCodeAt(end) === SPACE || source.charCodeAt(end) === TAB)) end++;
        }
      }
      cursor = Math.max(cursor, end);
      const pair = pairs?.get(index);
      if (pair) {
        if (pair.atomicUntil !== undefined) {
          const until = nodes[pair.atomicUntil]!.end;
          sink.mark(ATOM, start, until, 0);
          cursor = until;
          index = pair.atomicUntil;
        } else {
          sink.mark(pair.type === 'open' ? OPEN : CLOSE, start, end, pair.id);
          this.#htmlAttributes(start, end);
        }
        continue;
      }
      switch (node.type) {
        case 'text':
          if (end > start) this.#text(start, end);
          break;
        case 'emphasis':
        case 'strong':
        case 'delete':
          this.#wrapped(node, start, end);
          break;
        case 'link':
          if (node.children && node.children.length > 0) {
            this.#wrapped(node, start, end);
            const title = node.title ? findTitle(this.source, node.children[node.children.length - 1]!.end, end) : null;
            if (title) this.#pending.push({ start: title.start, end: title.end, ctx: 'link@title', escape: titleEscapes[title.close]! });
          } else {
            sink.mark(ATOM, start, end, 0);
          }
          break;
        case 'linkReference':
          if (node.full && node.children && node.children.length > 0) this.#wrapped(node, start, end);
          else sink.mark(ATOM, start, end, 0);
          break;
        case 'image': {
          sink.mark(ATOM, start, end, 0);
          const altEnd = findAltEnd(this.source, start + 2, end);
          if (altEnd > start + 2) this.#pending.push({ start: start + 2, end: altEnd, ctx: 'img@alt', escape: inlineEscape });
          const title = node.title && altEnd > 0 ? findTitle(this.source, altEnd, end) : null;
          if (title) this.#pending.push({ start: title.start, end: title.end, ctx: 'img@title', escape: titleEscapes[title.close]! });
          break;
        }
        case 'imageReference': {
          sink.mark(ATOM, start, end, 0);
          if (node.full) {
            const altEnd = findAltEnd(this.source, start + 2, end);
            if (altEnd > start + 2) this.#pending.push({ start: start + 2, end: altEnd, ctx: 'img@alt', escape: inlineEscape });
          }
          break;
        }
        case 'html':
          sink.mark(ATOM, start, end, 0);
          this.#htmlAttributes(start, end);
          break;
        default:
          // inlineCode, break, footnoteReference, autolinks and anything unknown: copied verbatim.
          sink.mark(ATOM, start, end, 0);
      }
    }
    if (to > cursor) this.#gap(cursor, to, afterText);
  }

  /** The text `source[start, end)`: placeholders become tokens, the rest is decoded. */
  #text(start: number, end: number): void {
    this.placeholders.mask(this.sink, this.source, start, end, MARKDOWN_TEXT);
  }

  /** Source between nodes: a line prefix after a text run's line break, whitespace, or an atom. */
  #gap(start: number, end: number, afterText: boolean): void {
    const source = this.source;
    let whitespace = true;
    let prefix = afterText && source.charCodeAt(start - 1) === LINE_FEED;
    for (let i = start; i < end && (whitespace || prefix); i++) {
      const c = source.charCodeAt(i);
      if (c !== SPACE && c !== TAB && c !== LINE_FEED && c !== CARRIAGE_RETURN && !(c === FORM_FEED || c === VERTICAL_TAB || (c > DELETE && /\s/.test(source[i]!)))) whitespace = false;
      if (!isPrefixChar(c)) prefix = false;
    }
    // A container prefix (`> `, list indent) opening a line after a text run's line
    // break: the escaper writes the break as the line ending plus the prefix, so the
    // prefix itself is left out (as an atom it came twice; as text, indented twice).
    if (prefix) return;
    if (whitespace) this.sink.text(decodeText(source.slice(start, end)));
    else this.sink.mark(ATOM, start, end, 0);
  }

  #wrapped(node: InlineNode, start: number, end: number): void {
    const children = node.children;
    const first = children?.[0];
    const last = children?.[children.length - 1];
    if (!first || !last) {
      this.sink.mark(ATOM, start, end, 0);
      return;
    }
    const innerStart = first.start;
    const innerEnd = last.end;
    const pair = newPairId();
    this.sink.mark(OPEN, start, innerStart, pair);
    this.#phrasing(children!, innerStart, innerEnd);
    this.sink.mark(CLOSE, innerEnd, end, pair);
  }

  /** Inline HTML follows the html rules: its translatable attributes are segments. */
  #htmlAttributes(start: number, end: number): void {
    if (!/\s(?:alt|title|placeholder|aria-label|aria-description|label|value|content)\s*=/i.test(this.source.slice(start, end))) return;
    const { drafts } = htmlDrafts(this.source, start, end, { directionPatches: false, inMarkdown: true, placeholders: this.placeholders });
    for (const draft of drafts) if (draft.kind === 'attr') this.#pending.push(draft);
  }
}

/** A GitHub alert's marker opening a block quote's paragraph (`> [!NOTE]`): GitHub only knows these words. */
const ALERT_MARKER = /^\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*(?=\r?\n|$)/i;

/** The children with a leading alert marker made an atom (a translated `[!HINWEIS]` is no alert box). */
function alertMarkerAtom(source: string, children: InlineNode[]): InlineNode[] {
  const first = children[0]!;
  if (first.type !== 'text' || source.charCodeAt(first.start) !== LEFT_BRACKET) return children;
  const marker = ALERT_MARKER.exec(source.slice(first.start, Math.min(first.end, first.start + 32)));
  if (!marker) return children;
  const end = first.start + marker[0].length;
  const alert: InlineNode = { type: 'alert', start: first.start, end };
  if (end >= first.end) return [alert, ...children.slice(1)];
  return [alert, { type: 'text', start: end, end: first.end }, ...children.slice(1)];
}

const HEADING_CTX = ['', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

/** How many block quotes the line holding `start` is in: the `>` before `start` on its line. */
function quoteDepthAt(source: string, start: number): number {
  let depth = 0;
  for (let i = source.lastIndexOf('\n', start - 1) + 1; i < start; i++) if (source.charCodeAt(i) === GREATER_THAN) depth++;
  return depth;
}

/** A character of a line's container prefix: space, tab or `>`. */
function isPrefixChar(c: number): boolean {
  return c === SPACE || c === TAB || c === GREATER_THAN;
}

/**
 * Pairs inline HTML open and close tags among siblings (`<b>…</b>` becomes a pair, like
 * in the html adapter); a `translate="no"`/`notranslate`/code-like element becomes one
 * atom from its open to its close tag.
 */
function htmlPairs(nodes: readonly InlineNode[]): Map<number, { type: 'open' | 'close'; id: number; atomicUntil?: number }> | undefined {
  let html = false;
  for (let index = 0; index < nodes.length && !html; index++) if (nodes[index]!.type === 'html') html = true;
  if (!html) return undefined;
  const result = new Map<number, { type: 'open' | 'close'; id: number; atomicUntil?: number }>();
  const stack: { name: string; index: number; atomic: boolean }[] = [];
  for (let index = 0; index < nodes.length; index++) {
    const node = nodes[index]!;
    if (node.type !== 'html') continue;
    const open = HTML_OPEN.exec(node.value!);
    if (open) {
      const name = open[1]!.toLowerCase();
      if (HTML_VOID.has(name) || node.value!.endsWith('/>')) continue;
      const atomic =
        HTML_ATOMIC.has(name) || /\stranslate\s*=\s*["']?no\b/i.test(node.value!) || /\sclass\s*=\s*["'][^"']*\bnotranslate\b/i.test(node.value!);
      stack.push({ name, index, atomic });
      continue;
    }
    const close = HTML_CLOSE.exec(node.value!);
    if (!close) continue;
    const name = close[1]!.toLowerCase();
    const at = stack.map((s) => s.name).lastIndexOf(name);
    if (at === -1) continue;
    const opened = stack[at]!;
    stack.length = at;
    if (opened.atomic) {
      for (const key of [...result.keys()]) if (key > opened.index && key < index) result.delete(key);
      result.set(opened.index, { type: 'open', id: 0, atomicUntil: index });
    } else {
      const id = newPairId();
      result.set(opened.index, { type: 'open', id });
      result.set(index, { type: 'close', id });
    }
  }
  return result;
}

export interface MarkdownOptions {
  /**
   * `mdast` parses the whole document with mdast (the reference reading; quadratic on
   * long lists); `marked` maps marked's tokens with mdast fallbacks (linear). The default
   * is mdast up to GROUP_SIZE and marked above.
   */
  readonly parser?: 'mdast' | 'marked';
  /** DEFAULT_DOCUMENT_LIMITS when omitted. */
  readonly limits?: DocumentLimits;
}

/** The segments of `source` as SegmentDrafts (what the adapter builds, as objects: for tests and benches). */
export function markdownDrafts(source: string, options: MarkdownOptions = {}): SegmentDraft[] {
  const sink = new DraftCollector();
  extract(source, sink, options);
  return sink.drafts;
}

function extract(source: string, sink: MarkdownSink, options: MarkdownOptions): void {
  const limits = options.limits ?? DEFAULT_DOCUMENT_LIMITS;
  checkContainers(source, limits);
  try {
    extractWithin(source, sink, options, limits);
  } catch (error) {
    // The checks above and in the readers bound every recursion we know of; should a
    // parser still run out of stack, the document is too complex, not a server error.
    if (error instanceof RangeError && /call stack/i.test(error.message)) throw tooComplex('its nesting', limits.maxNestingDepth);
    throw error;
  }
}

function extractWithin(source: string, sink: MarkdownSink, options: MarkdownOptions, limits: DocumentLimits): void {
  const extractor = new MarkdownExtractor(source, sink, limits.maxNestingDepth);
  const parser = options.parser ?? (source.length <= GROUP_SIZE ? 'mdast' : 'marked');
  if (parser === 'mdast') {
    extractor.parseGroup({ start: 0, end: source.length }, []);
    return;
  }
  const frontMatter = FRONT_MATTER.exec(source);
  const from = frontMatter ? frontMatter[0].length : 0;
  if (from > 0) extractor.parseGroup({ start: 0, end: from }, []);
  const mapper = new MarkedMapper(source, from, limits.maxNestingDepth);
  const definitions = parseDefinitions(mapper.lex());
  // Consecutive fallbacks are parsed together (up to GROUP_SIZE) to spare mdast's per-call cost.
  let pending: Group | undefined;
  mapper.map((block) => {
    if (block.type === 'fallback') {
      if (pending && pending.end === block.start && block.end - pending.start <= GROUP_SIZE) pending = { start: pending.start, end: block.end };
      else {
        if (pending) extractor.parseGroup(pending, definitions, true);
        pending = { start: block.start, end: block.end };
      }
      return;
    }
    if (pending) extractor.parseGroup(pending, definitions, true);
    pending = undefined;
    extractor.inlineBlock(block);
  });
  if (pending) extractor.parseGroup(pending, definitions, true);
}

export const markdownAdapter: FormatAdapter = {
  format: 'markdown',
  extract(content, limits) {
    const builder = new DocumentBuilder('markdown', content);
    extract(content, builder, { limits });
    return builder.document();
  },
};
