/**
 * HTML with htmlparser2 (measured ~6× faster than parse5 here; it inserts no implied
 * elements, so every event maps to real bytes). Block elements bound segments; inline
 * elements with text become pairs whose tokens are the original tag bytes; void and
 * embedded elements, `code kbd samp var` and `translate="no"`/`.notranslate` subtrees
 * are atoms; `script style pre template textarea` (and untranslatable blocks) are
 * skipped whole. Translatable attribute values are `attr` segments spliced in place.
 */
import { decodeHTML, decodeHTMLAttribute } from 'entities/decode';
import { Parser } from 'htmlparser2';
import { htmlAttrEscape, htmlTextEscape } from './escape.js';
import type { FormatAdapter } from './format.js';
import { maskRun } from './placeholders.js';
import { newPairId, TemplateDocument } from './template.js';
import type { Part, Patch, SegmentDraft } from './template.js';

/** Elements that start and end a segment (everything not listed is phrasing). */
const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'caption', 'center', 'col', 'colgroup', 'dd', 'details',
  'dialog', 'dir', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'frameset', 'h1', 'h2',
  'h3', 'h4', 'h5', 'h6', 'head', 'header', 'hgroup', 'hr', 'html', 'legend', 'li', 'link', 'main', 'menu', 'meta',
  'nav', 'noscript', 'ol', 'optgroup', 'option', 'p', 'section', 'select', 'summary', 'table', 'tbody', 'td',
  'tfoot', 'th', 'thead', 'title', 'tr', 'ul', 'base', 'datalist', 'search', 'frame',
]);
/** Never translated, and never part of a segment. */
const SKIPPED = new Set(['script', 'style', 'pre', 'template', 'textarea', 'xmp', 'plaintext']);
/** One atomic token for the whole element (content not translated). */
const ATOMIC = new Set([
  'code', 'kbd', 'samp', 'var', 'svg', 'math', 'img', 'br', 'wbr', 'input', 'video', 'audio', 'embed',
  'canvas', 'picture', 'area', 'source', 'track', 'param', 'meter', 'progress', 'map', 'ruby', 'iframe', 'object',
]);
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr', 'keygen', 'frame']);
/** Elements whose attributes are never translated (their subtree is code or graphics). */
const NO_ATTRS = new Set(['code', 'kbd', 'samp', 'var', 'svg', 'math', 'script', 'style', 'template']);
/** A fragment's top-level elements get `dir` for RTL targets, except these non-rendered ones. */
const NO_DIR = new Set(['script', 'style', 'template', 'link', 'meta', 'base', 'noscript', 'br', 'wbr', 'hr', 'title']);

export interface AttributeLocation {
  readonly name: string;
  /** Value range inside the quotes (empty range for a valueless attribute). */
  readonly valueStart: number;
  readonly valueEnd: number;
  readonly quote: '"' | "'" | '' | null;
  /** End of the whole attribute. */
  readonly end: number;
}

/** The attributes of the start tag `source[start, end)` with exact value ranges. */
export function scanAttributes(source: string, start: number, end: number): { attrs: AttributeLocation[]; insertAt: number } {
  const attrs: AttributeLocation[] = [];
  const tagName = /^<[^\s/>]*/.exec(source.slice(start, Math.min(end, start + 256)));
  let i = start + (tagName ? tagName[0].length : 1);
  let insertAt = i;
  const ws = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';
  while (i < end) {
    while (i < end && (ws(source[i]) || source[i] === '/')) i++;
    if (i >= end || source[i] === '>') break;
    const nameStart = i;
    while (i < end && !ws(source[i]) && source[i] !== '/' && source[i] !== '>' && (source[i] !== '=' || i === nameStart)) i++;
    const name = source.slice(nameStart, i).toLowerCase();
    let j = i;
    while (j < end && ws(source[j])) j++;
    if (source[j] !== '=') {
      attrs.push({ name, valueStart: i, valueEnd: i, quote: null, end: i });
      insertAt = i;
      continue;
    }
    j++;
    while (j < end && ws(source[j])) j++;
    const q = source[j];
    if (q === '"' || q === "'") {
      const close = source.indexOf(q, j + 1);
      if (close === -1 || close >= end) break;
      attrs.push({ name, valueStart: j + 1, valueEnd: close, quote: q, end: close + 1 });
      i = close + 1;
    } else {
      let k = j;
      while (k < end && !ws(source[k]) && source[k] !== '>') k++;
      attrs.push({ name, valueStart: j, valueEnd: k, quote: '', end: k });
      i = k;
    }
    insertAt = i;
  }
  return { attrs, insertAt };
}

function isTranslatableAttribute(tag: string, name: string, attribs: Record<string, string>): boolean {
  switch (name) {
    case 'title':
    case 'aria-label':
    case 'aria-description':
      return true;
    case 'alt':
      return tag === 'img' || tag === 'area' || tag === 'input';
    case 'placeholder':
      return tag === 'input' || tag === 'textarea';
    case 'label':
      return tag === 'option' || tag === 'track';
    case 'value':
      return tag === 'input' && ['button', 'submit', 'reset'].includes((attribs.type ?? '').toLowerCase());
    case 'content': {
      if (tag !== 'meta') return false;
      const key = (attribs.name ?? attribs.property ?? '').toLowerCase();
      return key === 'description' || key === 'og:title' || key === 'og:description';
    }
    default:
      return false;
  }
}

const collapse = (text: string): string => decodeHTML(text).replace(/[ \t\n\r\f]+/g, ' ');
const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';

interface OpenElement {
  readonly name: string;
  readonly start: number;
  readonly startTagEnd: number;
  /** The run the start tag was put in (paired inline elements). */
  run: number;
  readonly mode: 'block' | 'inline' | 'atomic' | 'skip' | 'inside';
}

type RunItem =
  | { readonly type: 'text'; readonly start: number; readonly end: number }
  | { readonly type: 'atom'; readonly start: number; readonly end: number }
  | { readonly type: 'open' | 'close'; readonly start: number; readonly end: number; readonly pair: number };

export interface HtmlOptions {
  /** Whether lang/dir patches apply (not for HTML embedded in markdown). */
  readonly directionPatches: boolean;
  /**
   * HTML embedded in markdown: line breaks are structure there (a line that starts with
   * `<` opens an HTML block, an indented `- ` a list), so they become atomic tokens
   * instead of collapsing to spaces, and atomic elements at a segment's edges stay
   * outside it, where nothing a translation adds can land in front of them.
   */
  readonly inMarkdown?: boolean;
}

/** Segment drafts and lang/dir patches for the HTML in `source[from, to)`. */
export function htmlDrafts(
  source: string,
  from = 0,
  to = source.length,
  options: HtmlOptions = { directionPatches: true },
): { drafts: SegmentDraft[]; patches: Patch[] } {
  const drafts: SegmentDraft[] = [];
  const patches: Patch[] = [];
  const stack: OpenElement[] = [];
  const blocks: string[] = [];
  let run: RunItem[] = [];
  let runId = 0;
  let hidden = 0; // depth inside an atomic or skipped subtree
  let lastEnd = from;
  let tagStart = from;
  const pairIds = new Map<OpenElement, number>();
  const fullDocument = /<html[\s>/]/i.test(source.slice(from, Math.min(to, from + 65536)));
  let htmlTagSeen = false;

  const flush = () => {
    const draft = runDraft(source, run, blocks[blocks.length - 1] ?? 'body', options.inMarkdown === true);
    if (draft) drafts.push(draft);
    run = [];
    runId++;
  };

  const attributeDrafts = (name: string, start: number, end: number, attribs: Record<string, string>) => {
    if (NO_ATTRS.has(name)) return;
    const { attrs } = scanAttributes(source, start, end);
    for (const attr of attrs) {
      if (attr.quote === null || !isTranslatableAttribute(name, attr.name, attribs)) continue;
      let s = attr.valueStart;
      let e = attr.valueEnd;
      while (s < e && isSpace(source[s])) s++;
      while (e > s && isSpace(source[e - 1])) e--;
      if (s === e) continue;
      drafts.push({
        start: s,
        end: e,
        parts: maskRun(source.slice(s, e), decodeHTMLAttribute, { offset: s }),
        kind: 'attr',
        ctx: `${name}@${attr.name}`,
        singleLine: true,
        escape: htmlAttrEscape(attr.quote),
      });
    }
  };

  const directionPatch = (name: string, start: number, end: number) => {
    const { attrs, insertAt } = scanAttributes(source, start, end);
    const dir = attrs.find((a) => a.name === 'dir' && a.quote !== null);
    if (name === 'html') {
      const lang = attrs.find((a) => a.name === 'lang' && a.quote !== null);
      if (lang) patches.push({ start: lang.valueStart, end: lang.valueEnd, render: (t) => t.code });
      const original = dir ? source.slice(dir.valueStart, dir.valueEnd) : '';
      if (dir) patches.push({ start: dir.valueStart, end: dir.valueEnd, render: (t) => (t.rtl ? 'rtl' : original.toLowerCase() === 'rtl' ? 'ltr' : original) });
      else patches.push({ start: insertAt, end: insertAt, render: (t) => (t.rtl ? ' dir="rtl"' : '') });
    } else if (dir) {
      const original = source.slice(dir.valueStart, dir.valueEnd);
      patches.push({ start: dir.valueStart, end: dir.valueEnd, render: (t) => (t.rtl ? 'rtl' : original) });
    } else {
      patches.push({ start: insertAt, end: insertAt, render: (t) => (t.rtl ? ' dir="rtl"' : '') });
    }
  };

  const parser: Parser = new Parser(
    {
      onopentagname() {
        tagStart = from + parser.startIndex;
      },
      onopentag(name, attribs, isImplied) {
        const start = isImplied ? lastEnd : tagStart;
        const end = isImplied ? lastEnd : from + parser.endIndex + 1;
        if (!isImplied) lastEnd = end;
        if (hidden > 0) {
          if (!VOID.has(name)) {
            stack.push({ name, start, startTagEnd: end, run: runId, mode: 'inside' });
            hidden++;
          }
          return;
        }
        const noTranslate =
          (attribs.translate ?? '').toLowerCase() === 'no' || /(?:^|\s)notranslate(?:\s|$)/.test(attribs.class ?? '');
        if (!isImplied && options.directionPatches) {
          if (name === 'html' && !htmlTagSeen) {
            htmlTagSeen = true;
            directionPatch(name, start, end);
          } else if (!fullDocument && stack.length === 0 && !NO_DIR.has(name)) {
            directionPatch(name, start, end);
          }
        }
        if (!isImplied && !noTranslate) attributeDrafts(name, start, end, attribs);
        const block = BLOCK.has(name) || SKIPPED.has(name);
        let mode: OpenElement['mode'];
        if (block) {
          flush();
          mode = SKIPPED.has(name) || noTranslate ? 'skip' : 'block';
          if (mode === 'block') blocks.push(name);
        } else if (ATOMIC.has(name) || noTranslate || VOID.has(name)) {
          mode = 'atomic';
        } else {
          mode = 'inline';
        }
        if (VOID.has(name)) {
          if (mode === 'atomic' && end > start) run.push({ type: 'atom', start, end });
          if (mode === 'block') blocks.pop();
          return;
        }
        const element: OpenElement = { name, start, startTagEnd: end, run: runId, mode };
        stack.push(element);
        if (mode === 'atomic' || mode === 'skip') hidden = 1;
        else if (mode === 'inline' && end > start) {
          const pair = newPairId();
          pairIds.set(element, pair);
          run.push({ type: 'open', start, end, pair });
        }
      },
      onclosetag(name, isImplied) {
        if (VOID.has(name)) return;
        const element = stack.pop();
        if (!element) return;
        const closeStart = isImplied ? lastEnd : from + parser.startIndex;
        const closeEnd = isImplied ? lastEnd : from + parser.endIndex + 1;
        if (!isImplied) lastEnd = closeEnd;
        if (element.mode === 'inside') {
          hidden--;
          return;
        }
        if (element.mode === 'atomic') {
          hidden = 0;
          run.push({ type: 'atom', start: element.start, end: closeEnd });
        } else if (element.mode === 'skip') {
          hidden = 0;
        } else if (element.mode === 'block') {
          flush();
          blocks.pop();
        } else {
          const pair = pairIds.get(element);
          pairIds.delete(element);
          if (closeEnd > closeStart) {
            if (pair !== undefined && element.run === runId) run.push({ type: 'close', start: closeStart, end: closeEnd, pair });
            else run.push({ type: 'atom', start: closeStart, end: closeEnd });
          }
        }
      },
      ontext() {
        const start = from + parser.startIndex;
        const end = from + parser.endIndex + 1;
        lastEnd = end;
        if (hidden > 0) return;
        const prev = run[run.length - 1];
        if (prev && prev.type === 'text' && prev.end === start) run[run.length - 1] = { type: 'text', start: prev.start, end };
        else run.push({ type: 'text', start, end });
      },
      oncomment() {
        lastEnd = from + parser.endIndex + 1;
      },
      onprocessinginstruction() {
        lastEnd = from + parser.endIndex + 1;
      },
    },
    { decodeEntities: false, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(source.slice(from, to));
  flush();
  return { drafts, patches };
}

/** An atom, or one tag of a pair that encloses no text (`<x2/>`, `<span></span>`). */
function wrapsNoText(source: string, items: readonly RunItem[], index: number): boolean {
  const item = items[index]!;
  if (item.type === 'atom') return true;
  if (item.type === 'text') return false;
  // `<x2/>` parses as an open tag that never closes, but it wraps nothing.
  if (item.type === 'open' && source.slice(item.start, item.end).endsWith('/>')) return true;
  const step = item.type === 'open' ? 1 : -1;
  for (let i = index + step; i >= 0 && i < items.length; i += step) {
    const other = items[i]!;
    if (other.type === 'text') {
      if (/\S/.test(source.slice(other.start, other.end))) return false;
    } else if (other.type !== 'atom' && other.pair === item.pair) {
      return true;
    }
  }
  return false;
}

/** Builds a segment from a run of inline items; gaps between items are atoms. */
function runDraft(source: string, items: RunItem[], block: string, inMarkdown: boolean): SegmentDraft | null {
  let first = 0;
  let last = items.length - 1;
  // Outer whitespace stays in the template.
  let start = -1;
  let end = -1;
  for (; first <= last; first++) {
    const item = items[first]!;
    if (inMarkdown && wrapsNoText(source, items, first)) continue;
    if (item.type !== 'text') {
      start = item.start;
      break;
    }
    let s = item.start;
    while (s < item.end && isSpace(source[s])) s++;
    if (s < item.end) {
      start = s;
      break;
    }
  }
  for (; last >= first; last--) {
    const item = items[last]!;
    if (inMarkdown && wrapsNoText(source, items, last)) continue;
    if (item.type !== 'text') {
      end = item.end;
      break;
    }
    let e = item.end;
    while (e > item.start && isSpace(source[e - 1])) e--;
    if (e > item.start) {
      end = e;
      break;
    }
  }
  if (start < 0 || end <= start) return null;
  const parts: Part[] = [];
  let cursor = start;
  for (let i = first; i <= last; i++) {
    const item = items[i]!;
    const s = Math.max(item.start, start);
    const e = Math.min(item.end, end);
    if (s > cursor) parts.push({ type: 'atom', bytes: { start: cursor, end: s } });
    if (item.type === 'text') {
      if (inMarkdown) pushWithLineBreaks(parts, source, s, e);
      else parts.push(...maskRun(source.slice(s, e), collapse, { offset: s }));
    }
    else if (item.type === 'atom') parts.push({ type: 'atom', bytes: { start: s, end: e } });
    else parts.push({ type: item.type, bytes: { start: s, end: e }, pair: item.pair });
    cursor = Math.max(cursor, e);
  }
  const heading = /^h[1-6]$/.test(block);
  return {
    start,
    end,
    parts,
    kind: heading ? 'heading' : block === 'td' || block === 'th' ? 'cell' : 'block',
    ctx: block,
    escape: htmlTextEscape,
  };
}

/** Text whose line breaks (with the next line's indentation) are atoms, so they survive as they are. */
function pushWithLineBreaks(parts: Part[], source: string, start: number, end: number): void {
  const raw = source.slice(start, end);
  let last = 0;
  for (const lineBreak of raw.matchAll(/\r?\n[ \t]*/g)) {
    if (lineBreak.index > last) maskRun(raw.slice(last, lineBreak.index), collapse, { offset: start + last }, {}, parts);
    parts.push({ type: 'atom', bytes: { start: start + lineBreak.index, end: start + lineBreak.index + lineBreak[0].length } });
    last = lineBreak.index + lineBreak[0].length;
  }
  if (last < raw.length) maskRun(raw.slice(last), collapse, { offset: start + last }, {}, parts);
}

export const htmlAdapter: FormatAdapter = {
  format: 'html',
  extract(content) {
    const { drafts, patches } = htmlDrafts(content);
    return new TemplateDocument('html', content, drafts, patches);
  },
};
