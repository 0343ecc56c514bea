/**
 * Reads an Android `res/values/strings.xml` into its resources with the source ranges a
 * writer needs: each `<string>`, `<string-array>` and `<plurals>` (name, `translatable`,
 * the comment just before it), and the content range of the string and of each `<item>`
 * (with its `quantity`). Tokenized by htmlparser2 in XML mode, which reports where each
 * tag lies and rewrites nothing; entities are never expanded (a DOCTYPE's own entities
 * stay references, so an entity bomb costs nothing). An element closed by another's end
 * tag, or left open, is refused with its line.
 */
import { Parser } from 'htmlparser2';
import { tooComplex } from '../core/limits.js';
import type { DocumentLimits } from '../core/limits.js';
import { invalidContent, lineAt } from '../core/invalid.js';

export type ResourceKind = 'string' | 'string-array' | 'plurals';

export interface AndroidItem {
  /** The element `<item …>…</item>` (or `<string …>…</string>`). */
  readonly start: number;
  readonly end: number;
  /** Its content, between the tags. */
  readonly contentStart: number;
  readonly contentEnd: number;
  /** A `<plurals>` item's `quantity`. */
  readonly quantity: string | undefined;
}

export interface AndroidResource {
  readonly kind: ResourceKind;
  readonly name: string;
  readonly translatable: boolean;
  readonly start: number;
  readonly end: number;
  /** The text of the `<!-- … -->` comment right before the element (only white space between). */
  readonly comment: string | undefined;
  /** Where that comment starts (the element's start when it has none): the resource's lines begin on its line. */
  readonly headStart: number;
  /** The element's content, between its tags (all its items). */
  readonly contentStart: number;
  readonly contentEnd: number;
  /** A `<string>`'s one item, or the items of an array or plurals. */
  readonly items: readonly AndroidItem[];
}

/** A file's resources, and where its root's content ends (before `</resources>`; none for `<resources/>`). */
export interface AndroidFile {
  readonly resources: readonly AndroidResource[];
  readonly rootContentEnd: number | undefined;
}

const RESOURCE_KINDS: ReadonlySet<string> = new Set(['string', 'string-array', 'plurals']);

function invalid(content: string, at: number, what: string): never {
  return invalidContent('a valid Android strings.xml', content, at, what);
}

export function readAndroid(content: string, limits: DocumentLimits): AndroidFile {
  const resources: AndroidResource[] = [];
  let rootContentEnd: number | undefined;
  const stack: string[] = [];
  const opened: number[] = [];
  let root = false;
  let lastComment: { start: number; end: number; text: string } | undefined;
  let current: { kind: ResourceKind; name: string; translatable: boolean; start: number; comment: string | undefined; headStart: number; contentStart: number; items: AndroidItem[] } | undefined;
  let item: { start: number; contentStart: number; quantity: string | undefined } | undefined;
  const parser: Parser = new Parser(
    {
      onopentag(name, attributes) {
        const start = parser.startIndex;
        const end = parser.endIndex + 1;
        const selfClosing = content.charCodeAt(parser.endIndex - 1) === 47; /* / */
        if (stack.length >= limits.maxNestingDepth) throw tooComplex('the nesting of XML elements', limits.maxNestingDepth);
        stack.push(name);
        opened.push(start);
        const depth = stack.length;
        if (depth === 1) {
          if (name !== 'resources') invalid(content, start, `expected a <resources> root element, found <${name}>`);
          root = true;
          return;
        }
        if (depth === 2 && RESOURCE_KINDS.has(name)) {
          const between = lastComment ? content.slice(lastComment.end, start) : 'x';
          const attached = /^\s*$/.test(between) && lastComment !== undefined;
          current = {
            kind: name as ResourceKind,
            name: attributes.name ?? '',
            translatable: attributes.translatable !== 'false',
            start,
            comment: attached ? lastComment!.text : undefined,
            headStart: attached ? lastComment!.start : start,
            contentStart: end,
            items: [],
          };
          if (name === 'string' && !selfClosing) item = { start, contentStart: end, quantity: undefined };
          return;
        }
        // (An empty `<item …/>` has no content to write into: its content range is its end, and it is written as it is.)
        if (depth === 3 && current && current.kind !== 'string' && name === 'item') {
          item = { start, contentStart: end, quantity: attributes.quantity };
        }
      },
      onclosetag(name, implied) {
        const start = parser.startIndex;
        const end = parser.endIndex + 1;
        const selfClosing = content.charCodeAt(parser.endIndex - 1) === 47;
        if (implied && !selfClosing) invalid(content, opened[opened.length - 1] ?? start, `<${name}> is not closed before its parent's end tag (line ${lineAt(content, start)})`);
        const depth = stack.length;
        stack.pop();
        opened.pop();
        if (depth === 3 && item && current && name === 'item') {
          current.items.push({ start: item.start, end, contentStart: selfClosing ? end : item.contentStart, contentEnd: selfClosing ? end : start, quantity: item.quantity });
          item = undefined;
        } else if (depth === 2 && current) {
          if (current.kind === 'string' && item) current.items.push({ start: item.start, end, contentStart: item.contentStart, contentEnd: selfClosing ? item.contentStart : start, quantity: undefined });
          item = undefined;
          resources.push({ kind: current.kind, name: current.name, translatable: current.translatable, start: current.start, end, comment: current.comment, headStart: current.headStart, contentStart: selfClosing ? end : current.contentStart, contentEnd: selfClosing ? end : start, items: current.items });
          current = undefined;
          lastComment = undefined;
        } else if (depth === 2) lastComment = undefined;
        else if (depth === 1 && !selfClosing) rootContentEnd = start;
      },
      oncomment(text) {
        if (stack.length === 1) lastComment = { start: parser.startIndex, end: parser.endIndex + 1, text: text.trim() };
      },
    },
    { xmlMode: true, decodeEntities: false },
  );
  // An end tag with no open element of its name is dropped by htmlparser2 without a word: refused here, at the tokenizer's call.
  const closeTag = parser.onclosetag.bind(parser);
  parser.onclosetag = (start: number, endIndex: number): void => {
    const name = content.slice(start, endIndex);
    const open = stack[stack.length - 1];
    if (open !== name) invalid(content, start, open === undefined ? `</${name}> closes no element` : `</${name}> found where </${open}> (opened on line ${lineAt(content, opened[opened.length - 1]!)}) was expected`);
    closeTag(start, endIndex);
  };
  parser.write(content);
  parser.end();
  if (stack.length > 0) invalid(content, opened[opened.length - 1]!, `<${stack[stack.length - 1]}> is never closed`);
  if (!root) invalid(content, 0, 'expected a <resources> root element');
  return { resources, rootContentEnd };
}
