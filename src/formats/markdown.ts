/**
 * Markdown with mdast (micromark + GFM + front matter), whose nodes carry source
 * offsets. Segments are the inline content of paragraphs, headings and table cells;
 * emphasis, strong, delete and links are pairs whose tokens are the original delimiter
 * bytes; inline code, images, inline HTML, hard breaks and footnote references are
 * atoms. Image alt and link titles are `attr` segments spliced inside their token bytes.
 * HTML blocks follow the html adapter's rules. mdast is quadratic on long lists
 * (ENGINE-NOTES a7), so input over GROUP_SIZE is pre-split with marked's linear lexer.
 */
import { decodeHTMLStrict } from 'entities/decode';
import { Lexer } from 'marked';
import type { Token, Tokens } from 'marked';
import type { Nodes, Parent, PhrasingContent, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import { markdownEscape, markdownTitleEscape } from './escape.js';
import type { FormatAdapter } from './format.js';
import { htmlDrafts } from './html.js';
import { maskRun } from './placeholders.js';
import { newPairId, TemplateDocument } from './template.js';
import type { Escaper, Part, SegmentDraft } from './template.js';

/** Largest group handed to mdast at once: 4 KiB measured ~2× faster than 16 KiB on list-heavy input (docs/formats.md). */
export const GROUP_SIZE = 4 * 1024;

const FRONT_MATTER = /^---[ \t]*\r?\n(?:[\s\S]*?\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/** Text of a text node as a reader sees it: escapes and entities resolved, line prefixes dropped. */
function decodeText(raw: string): string {
  return raw.replace(
    /\\([!-/:-@[-`{-~])|&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});|[ \t]*\r?\n[ \t>]*/g,
    (match, escaped: string | undefined) => {
      if (escaped !== undefined) return escaped;
      if (match.startsWith('&')) return decodeHTMLStrict(match);
      return '\n';
    },
  );
}

interface Group {
  readonly start: number;
  readonly end: number;
}

/** Splits `[from, source.length)` into groups of whole top-level blocks, each ≤ GROUP_SIZE where possible. */
export function splitGroups(source: string, from: number): { groups: Group[]; definitions: string } {
  if (source.length - from <= GROUP_SIZE) return { groups: [{ start: from, end: source.length }], definitions: '' };
  const body = source.slice(from);
  // marked normalises line endings; map its offsets back to the original as we go.
  const normalized = body.replace(/\r\n?/g, '\n');
  const lexer = new Lexer({ gfm: true });
  let tokens: Token[];
  try {
    tokens = lexer.lex(normalized);
  } catch {
    return { groups: [{ start: from, end: source.length }], definitions: '' };
  }
  const pieces: number[] = []; // lengths in the normalised text
  for (const token of tokens) {
    if (token.type === 'list' && token.raw.length > GROUP_SIZE) {
      const items = (token as Tokens.List).items;
      let sum = 0;
      for (const item of items) {
        pieces.push(item.raw.length);
        sum += item.raw.length;
      }
      if (sum !== token.raw.length) {
        pieces.splice(pieces.length - items.length, items.length, token.raw.length);
      }
    } else {
      pieces.push(token.raw.length);
    }
  }
  if (pieces.reduce((a, b) => a + b, 0) !== normalized.length) {
    // Raw strings do not tile the source (should not happen): parse in one piece.
    return { groups: [{ start: from, end: source.length }], definitions: '' };
  }
  // Normalised offset → original offset, walking both strings once.
  let orig = from;
  let norm = 0;
  const toOriginal = (target: number): number => {
    while (norm < target) {
      if (source[orig] === '\r' && source[orig + 1] === '\n') orig += 2;
      else orig += 1;
      norm += 1;
    }
    return orig;
  };
  const groups: Group[] = [];
  let groupStart = 0;
  let cursor = 0;
  for (const length of pieces) {
    if (cursor > groupStart && cursor + length - groupStart > GROUP_SIZE) {
      groups.push({ start: toOriginal(groupStart), end: toOriginal(cursor) });
      groupStart = cursor;
    }
    cursor += length;
  }
  groups.push({ start: toOriginal(groupStart), end: source.length });
  // Every group must still resolve references defined elsewhere in the document.
  const labels = new Set(Object.keys((tokens as Token[] & { links?: Record<string, unknown> }).links ?? {}));
  for (const match of normalized.matchAll(/^ {0,3}\[\^([^\]\n]+)\]:/gm)) labels.add(`^${match[1]}`);
  const definitions = [...labels].map((label) => `[${label.replace(/[[\]]/g, '\\$&')}]: #`).join('\n');
  return { groups, definitions };
}

/** The continuation prefix of the line a block starts on: `>` kept, list markers as spaces. */
function linePrefix(source: string, start: number): string {
  const lineStart = source.lastIndexOf('\n', start - 1) + 1;
  return source.slice(lineStart, start).replace(/[^>\t]/g, ' ');
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

/** The title's inner range inside a link/image destination part `…"title")`, or null. */
function findTitle(source: string, from: number, to: number): { start: number; end: number; close: string } | null {
  let k = to - 1;
  if (source[k] !== ')') return null;
  k--;
  while (k > from && /\s/.test(source[k]!)) k--;
  const close = source[k];
  if (close !== '"' && close !== "'" && close !== ')') return null;
  const open = close === ')' ? '(' : close;
  for (let j = k - 1; j > from; j--) {
    if (source[j] === open && source[j - 1] !== '\\') {
      return j + 1 < k ? { start: j + 1, end: k, close } : null;
    }
  }
  return null;
}

const HTML_OPEN = /^<([A-Za-z][A-Za-z0-9-]*)(?:\s[^>]*)?>$/;
const HTML_CLOSE = /^<\/([A-Za-z][A-Za-z0-9-]*)\s*>$/;
const HTML_VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const HTML_ATOMIC = new Set(['code', 'kbd', 'samp', 'var', 'svg', 'math', 'script', 'style']);

class MarkdownExtractor {
  readonly drafts: SegmentDraft[] = [];
  readonly eol: string;
  #base = 0;
  #limit = 0;

  constructor(private readonly source: string) {
    this.eol = source.includes('\r\n') ? '\r\n' : '\n';
  }

  parseGroup(group: Group, definitions: string): void {
    const text = this.source.slice(group.start, group.end);
    const tree = fromMarkdown(definitions ? `${text}\n\n${definitions}\n` : text, {
      extensions: [gfm(), frontmatter(['yaml'])],
      mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml'])],
    });
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
          this.#inline(node, 'block', undefined, {
            newline: this.eol + linePrefix(this.source, this.#start(node)),
            lineStart: true,
          });
          break;
        case 'heading':
          this.#inline(node, 'heading', `h${node.depth}`, { newline: ' ', lineStart: false }, true);
          break;
        case 'tableCell':
          this.#inline(node, 'cell', 'table cell', { newline: ' ', lineStart: false, table: true }, true);
          break;
        case 'html': {
          const { drafts } = htmlDrafts(this.source, this.#start(node), this.#end(node), { directionPatches: false });
          this.drafts.push(...drafts);
          break;
        }
        case 'code':
        case 'yaml':
        case 'definition':
        case 'thematicBreak':
          break;
        default:
          if ('children' in node) this.#blocks(node.children as RootContent[]);
      }
    }
  }

  #inline(
    node: Parent,
    kind: SegmentDraft['kind'],
    ctx: string | undefined,
    escapeOptions: Parameters<typeof markdownEscape>[0],
    singleLine = false,
  ): void {
    const children = node.children as PhrasingContent[];
    const first = children[0];
    const last = children[children.length - 1];
    if (!first || !last) return;
    const start = this.#start(first);
    const end = this.#end(last);
    const parts: Part[] = [];
    this.#phrasing(children, start, end, parts);
    let escape: Escaper = markdownEscape(escapeOptions);
    if (kind === 'heading') {
      // A trailing `#` run would be read as the heading's closing sequence.
      const inner = escape;
      escape = (run, at) => {
        const text = inner(run, at);
        return at.last ? text.replace(/(#+)(\s*)$/, '\\$1$2') : text;
      };
    }
    this.drafts.push({ start, end, parts, kind, ...(ctx ? { ctx } : {}), ...(singleLine ? { singleLine } : {}), escape, bidiInside: true });
  }

  /** Appends the parts for `nodes`, which together cover `[from, to)`; gaps become text or atoms. */
  #phrasing(nodes: readonly PhrasingContent[], from: number, to: number, parts: Part[]): void {
    const pairs = this.#htmlPairs(nodes);
    let cursor = from;
    for (let index = 0; index < nodes.length; index++) {
      const node = nodes[index]!;
      const start = this.#start(node);
      const end = this.#end(node);
      if (start > cursor) this.#gap(cursor, start, parts);
      cursor = Math.max(cursor, end);
      const pair = pairs.get(index);
      if (pair) {
        if (pair.atomicUntil !== undefined) {
          const until = this.#end(nodes[pair.atomicUntil]!);
          parts.push({ type: 'atom', bytes: { start, end: until } });
          cursor = until;
          index = pair.atomicUntil;
        } else {
          parts.push({ type: pair.type, bytes: { start, end }, pair: pair.id });
          this.#htmlAttributes(start, end);
        }
        continue;
      }
      switch (node.type) {
        case 'text':
          parts.push(...maskRun(this.source.slice(start, end), decodeText, { offset: start }));
          break;
        case 'emphasis':
        case 'strong':
        case 'delete':
          this.#wrapped(node, start, end, parts);
          break;
        case 'link':
          if (this.source[start] === '[' && node.children.length > 0) {
            this.#wrapped(node, start, end, parts);
            const title = node.title ? findTitle(this.source, this.#end(node.children[node.children.length - 1]!), end) : null;
            if (title) this.#attr(title.start, title.end, 'link@title', markdownTitleEscape(title.close));
          } else {
            parts.push({ type: 'atom', bytes: { start, end } });
          }
          break;
        case 'linkReference':
          if (node.referenceType === 'full' && node.children.length > 0) this.#wrapped(node, start, end, parts);
          else parts.push({ type: 'atom', bytes: { start, end } });
          break;
        case 'image': {
          parts.push({ type: 'atom', bytes: { start, end } });
          const altEnd = findAltEnd(this.source, start + 2, end);
          if (altEnd > start + 2) this.#attr(start + 2, altEnd, 'img@alt', markdownEscape({ newline: ' ', lineStart: false }));
          const title = node.title && altEnd > 0 ? findTitle(this.source, altEnd, end) : null;
          if (title) this.#attr(title.start, title.end, 'img@title', markdownTitleEscape(title.close));
          break;
        }
        case 'imageReference': {
          parts.push({ type: 'atom', bytes: { start, end } });
          if (node.referenceType === 'full') {
            const altEnd = findAltEnd(this.source, start + 2, end);
            if (altEnd > start + 2) this.#attr(start + 2, altEnd, 'img@alt', markdownEscape({ newline: ' ', lineStart: false }));
          }
          break;
        }
        case 'html':
          parts.push({ type: 'atom', bytes: { start, end } });
          this.#htmlAttributes(start, end);
          break;
        default:
          // inlineCode, break, footnoteReference and anything unknown: copied verbatim.
          parts.push({ type: 'atom', bytes: { start, end } });
      }
    }
    if (to > cursor) this.#gap(cursor, to, parts);
  }

  #gap(start: number, end: number, parts: Part[]): void {
    const raw = this.source.slice(start, end);
    if (/^\s*$/.test(raw)) parts.push({ type: 'text', value: decodeText(raw) });
    else parts.push({ type: 'atom', bytes: { start, end } });
  }

  #wrapped(node: Parent & Nodes, start: number, end: number, parts: Part[]): void {
    const children = node.children as PhrasingContent[];
    const first = children[0];
    const last = children[children.length - 1];
    if (!first || !last) {
      parts.push({ type: 'atom', bytes: { start, end } });
      return;
    }
    const innerStart = this.#start(first);
    const innerEnd = this.#end(last);
    const pair = newPairId();
    parts.push({ type: 'open', bytes: { start, end: innerStart }, pair });
    this.#phrasing(children, innerStart, innerEnd, parts);
    parts.push({ type: 'close', bytes: { start: innerEnd, end }, pair });
  }

  #attr(start: number, end: number, ctx: string, escape: Escaper): void {
    this.drafts.push({
      start,
      end,
      parts: maskRun(this.source.slice(start, end), decodeText, { offset: start }),
      kind: 'attr',
      ctx,
      singleLine: true,
      escape,
    });
  }

  /** Inline HTML follows the html rules: its translatable attributes are segments. */
  #htmlAttributes(start: number, end: number): void {
    if (!/\s(?:alt|title|placeholder|aria-label|aria-description|label|value|content)\s*=/i.test(this.source.slice(start, end))) return;
    const { drafts } = htmlDrafts(this.source, start, end, { directionPatches: false });
    this.drafts.push(...drafts.filter((d) => d.kind === 'attr'));
  }

  /**
   * Pairs inline HTML open and close tags among siblings (`<b>…</b>` becomes a pair, like
   * in the html adapter); a `translate="no"`/`notranslate`/code-like element becomes one
   * atom from its open to its close tag.
   */
  #htmlPairs(nodes: readonly PhrasingContent[]): Map<number, { type: 'open' | 'close'; id: number; atomicUntil?: number }> {
    const result = new Map<number, { type: 'open' | 'close'; id: number; atomicUntil?: number }>();
    if (!nodes.some((n) => n.type === 'html')) return result;
    const stack: { name: string; index: number; atomic: boolean }[] = [];
    for (const [index, node] of nodes.entries()) {
      if (node.type !== 'html') continue;
      const open = HTML_OPEN.exec(node.value);
      if (open) {
        const name = open[1]!.toLowerCase();
        if (HTML_VOID.has(name) || node.value.endsWith('/>')) continue;
        const atomic =
          HTML_ATOMIC.has(name) || /\stranslate\s*=\s*["']?no\b/i.test(node.value) || /\sclass\s*=\s*["'][^"']*\bnotranslate\b/i.test(node.value);
        stack.push({ name, index, atomic });
        continue;
      }
      const close = HTML_CLOSE.exec(node.value);
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
}

export function markdownDrafts(source: string): SegmentDraft[] {
  const frontMatter = FRONT_MATTER.exec(source);
  const from = frontMatter ? frontMatter[0].length : 0;
  const extractor = new MarkdownExtractor(source);
  const { groups, definitions } = splitGroups(source, from);
  if (groups.length === 1) {
    // Small documents: let mdast see the front matter itself.
    extractor.parseGroup({ start: 0, end: source.length }, '');
  } else {
    for (const group of groups) extractor.parseGroup(group, definitions);
  }
  return extractor.drafts;
}

export const markdownAdapter: FormatAdapter = {
  format: 'markdown',
  extract(content) {
    return new TemplateDocument('markdown', content, markdownDrafts(content));
  },
};
