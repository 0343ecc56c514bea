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
import type { Nodes, PhrasingContent, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import { markdownEscape, markdownTitleEscape } from './escape.js';
import type { FormatAdapter } from './format.js';
import { htmlDrafts } from './html.js';
import { MarkedMapper } from './markdown-marked.js';
import type { InlineBlock, InlineNode } from './markdown-marked.js';
import { maskRun } from './placeholders.js';
import { newPairId, TemplateDocument } from './template.js';
import type { Escaper, Part, SegmentDraft } from './template.js';

/**
 * Documents up to this size are parsed whole by mdast (the reference reading, a few ms);
 * larger ones take the marked path (markdown-marked.ts), with mdast only for the blocks
 * that path cannot prove exact.
 */
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
        case 'heading':
        case 'tableCell':
          this.inlineBlock({ type: node.type, depth: node.type === 'heading' ? node.depth : undefined, children: this.#nodes(node.children) } as InlineBlock);
          break;
        case 'html':
          this.inlineBlock({ type: 'html', start: this.#start(node), end: this.#end(node) });
          break;
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

  /** mdast phrasing nodes as InlineNodes (the shape the marked path produces too). */
  #nodes(nodes: readonly PhrasingContent[]): InlineNode[] {
    const out: InlineNode[] = [];
    for (const node of nodes) {
      const start = this.#start(node);
      const end = this.#end(node);
      switch (node.type) {
        case 'emphasis':
        case 'strong':
        case 'delete':
          out.push({ type: node.type, start, end, children: this.#nodes(node.children) });
          break;
        case 'link':
          out.push({ type: this.source[start] === '[' ? 'link' : 'autolink', start, end, children: this.#nodes(node.children), title: Boolean(node.title) });
          break;
        case 'linkReference':
          out.push({ type: 'linkReference', start, end, children: this.#nodes(node.children), full: node.referenceType === 'full' });
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

  /** Emits the drafts of one block (from either parser). */
  inlineBlock(block: InlineBlock): void {
    switch (block.type) {
      case 'paragraph': {
        const first = block.children[0];
        if (!first) return;
        this.#inline(block.children, 'block', undefined, { newline: this.eol + linePrefix(this.source, first.start), lineStart: true });
        return;
      }
      case 'heading':
        this.#inline(block.children, 'heading', `h${block.depth}`, { newline: ' ', lineStart: false }, true);
        return;
      case 'tableCell':
        this.#inline(block.children, 'cell', 'table cell', { newline: ' ', lineStart: false, table: true }, true);
        return;
      case 'html': {
        const { drafts } = htmlDrafts(this.source, block.start, block.end, { directionPatches: false, inMarkdown: true });
        for (const draft of drafts) this.drafts.push(draft);
        return;
      }
      case 'fallback':
        return;
    }
  }

  #inline(
    children: readonly InlineNode[],
    kind: SegmentDraft['kind'],
    ctx: string | undefined,
    escapeOptions: Parameters<typeof markdownEscape>[0],
    singleLine = false,
  ): void {
    const first = children[0];
    const last = children[children.length - 1];
    if (!first || !last) return;
    const start = first.start;
    const end = last.end;
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
  #phrasing(nodes: readonly InlineNode[], from: number, to: number, parts: Part[]): void {
    const pairs = htmlPairs(nodes);
    let cursor = from;
    for (let index = 0; index < nodes.length; index++) {
      const node = nodes[index]!;
      const start = node.start;
      const end = node.end;
      if (start > cursor) this.#gap(cursor, start, parts);
      cursor = Math.max(cursor, end);
      const pair = pairs?.get(index);
      if (pair) {
        if (pair.atomicUntil !== undefined) {
          const until = nodes[pair.atomicUntil]!.end;
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
          maskRun(this.source.slice(start, end), decodeText, { offset: start }, {}, parts);
          break;
        case 'emphasis':
        case 'strong':
        case 'delete':
          this.#wrapped(node, start, end, parts);
          break;
        case 'link':
          if (node.children && node.children.length > 0) {
            this.#wrapped(node, start, end, parts);
            const title = node.title ? findTitle(this.source, node.children[node.children.length - 1]!.end, end) : null;
            if (title) this.#attr(title.start, title.end, 'link@title', markdownTitleEscape(title.close));
          } else {
            parts.push({ type: 'atom', bytes: { start, end } });
          }
          break;
        case 'linkReference':
          if (node.full && node.children && node.children.length > 0) this.#wrapped(node, start, end, parts);
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
          if (node.full) {
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
          // inlineCode, break, footnoteReference, autolinks and anything unknown: copied verbatim.
          parts.push({ type: 'atom', bytes: { start, end } });
      }
    }
    if (to > cursor) this.#gap(cursor, to, parts);
  }

  #gap(start: number, end: number, parts: Part[]): void {
    const raw = this.source.slice(start, end);
    if (/^\s*$/.test(raw)) parts.push({ type: 'text', value: decodeText(raw) });
    // A container prefix (`> `, list indent) opening a line after a text run's line
    // break: the escaper writes it again after that break, so as an atom it came twice.
    else if (this.source.charCodeAt(start - 1) === 10 && /^[ \t>]*$/.test(raw)) return;
    else parts.push({ type: 'atom', bytes: { start, end } });
  }

  #wrapped(node: InlineNode, start: number, end: number, parts: Part[]): void {
    const children = node.children ?? [];
    const first = children[0];
    const last = children[children.length - 1];
    if (!first || !last) {
      parts.push({ type: 'atom', bytes: { start, end } });
      return;
    }
    const innerStart = first.start;
    const innerEnd = last.end;
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
    const { drafts } = htmlDrafts(this.source, start, end, { directionPatches: false, inMarkdown: true });
    this.drafts.push(...drafts.filter((d) => d.kind === 'attr'));
  }

}

/**
 * Pairs inline HTML open and close tags among siblings (`<b>…</b>` becomes a pair, like
 * in the html adapter); a `translate="no"`/`notranslate`/code-like element becomes one
 * atom from its open to its close tag.
 */
function htmlPairs(nodes: readonly InlineNode[]): Map<number, { type: 'open' | 'close'; id: number; atomicUntil?: number }> | undefined {
  if (!nodes.some((n) => n.type === 'html')) return undefined;
  const result = new Map<number, { type: 'open' | 'close'; id: number; atomicUntil?: number }>();
  const stack: { name: string; index: number; atomic: boolean }[] = [];
  for (const [index, node] of nodes.entries()) {
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
}

export function markdownDrafts(source: string, options: MarkdownOptions = {}): SegmentDraft[] {
  const extractor = new MarkdownExtractor(source);
  const parser = options.parser ?? (source.length <= GROUP_SIZE ? 'mdast' : 'marked');
  if (parser === 'mdast') {
    extractor.parseGroup({ start: 0, end: source.length }, '');
    return extractor.drafts;
  }
  const frontMatter = FRONT_MATTER.exec(source);
  const from = frontMatter ? frontMatter[0].length : 0;
  if (from > 0) extractor.parseGroup({ start: 0, end: from }, '');
  const { blocks, definitions } = new MarkedMapper(source, from).run();
  // Consecutive fallbacks are parsed together (up to GROUP_SIZE) to spare mdast's per-call cost.
  let pending: Group | undefined;
  for (const block of blocks) {
    if (block.type === 'fallback') {
      if (pending && pending.end === block.start && block.end - pending.start <= GROUP_SIZE) pending = { start: pending.start, end: block.end };
      else {
        if (pending) extractor.parseGroup(pending, definitions);
        pending = { start: block.start, end: block.end };
      }
      continue;
    }
    if (pending) extractor.parseGroup(pending, definitions);
    pending = undefined;
    extractor.inlineBlock(block);
  }
  if (pending) extractor.parseGroup(pending, definitions);
  return extractor.drafts;
}

export const markdownAdapter: FormatAdapter = {
  format: 'markdown',
  extract(content) {
    return new TemplateDocument('markdown', content, markdownDrafts(content));
  },
};
