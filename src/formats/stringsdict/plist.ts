/**
 * Reads an XML property list (Apple's plist DTD: `dict`, `key`, `string`, `array`,
 * `integer`, `real`, `true`, `false`, `date`, `data`) into a tree that keeps where every
 * element lies, so a writer can replace a string's content or a dict's key/value pair in
 * place. Tokenized by htmlparser2 in XML mode (positions, no rewriting). A DOCTYPE with
 * an internal subset (entity declarations: the "billion laughs") and any entity beyond
 * XML's five are refused; nothing is ever expanded.
 */
import { Parser } from 'htmlparser2';
import { tooComplex } from '../core/limits.js';
import type { DocumentLimits } from '../core/limits.js';
import { invalidContent } from '../core/invalid.js';

export interface PlistNode {
  readonly name: string;
  /** The start tag's `<`, and the end tag's `>` + 1. */
  readonly start: number;
  readonly end: number;
  /** The content, between the tags (empty for `<string/>`). */
  readonly contentStart: number;
  readonly contentEnd: number;
  readonly children: readonly PlistNode[];
  /** The decoded text of a `key` or `string`. */
  readonly text: string;
}

export interface DictPair {
  readonly key: PlistNode;
  readonly value: PlistNode;
}

export function invalidPlist(content: string, at: number, what: string): never {
  return invalidContent('a valid .stringsdict property list', content, at, what);
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const TEXT_ELEMENTS: ReadonlySet<string> = new Set(['key', 'string']);

/** Text content as XML reads it: references decoded, CDATA sections unwrapped. */
function decodeText(content: string, start: number, end: number): string {
  const raw = content.slice(start, end);
  if (!raw.includes('&') && !raw.includes('<')) return raw;
  let out = '';
  let at = 0;
  for (const match of raw.matchAll(/<!\[CDATA\[([\s\S]*?)\]\]>|&(?:#(\d+)|#x([0-9a-fA-F]+)|([A-Za-z]\w*));|&|<!--[\s\S]*?-->/g)) {
    out += raw.slice(at, match.index);
    at = match.index + match[0].length;
    const [whole, cdata, dec, hex, name] = match;
    if (cdata !== undefined) out += cdata;
    else if (whole.startsWith('<!--')) continue;
    else if (dec !== undefined || hex !== undefined) {
      const code = dec !== undefined ? Number(dec) : parseInt(hex!, 16);
      if (!(code > 0 && code <= 0x10ffff)) invalidPlist(content, start + match.index, `${whole} is not a character`);
      out += String.fromCodePoint(code);
    } else if (name !== undefined && ENTITIES[name] !== undefined) out += ENTITIES[name];
    else invalidPlist(content, start + match.index, `${whole === '&' ? 'a bare "&"' : whole} is not one of XML's entities (a plist declares none)`);
  }
  return out + raw.slice(at);
}

/** Refuses a DOCTYPE that declares anything (`<!DOCTYPE plist [ <!ENTITY …> ]>`). */
function checkDoctype(content: string): void {
  const doctype = content.search(/<!DOCTYPE/i);
  if (doctype < 0) return;
  const close = content.indexOf('>', doctype);
  const bracket = content.indexOf('[', doctype);
  if (bracket >= 0 && (close < 0 || bracket < close)) {
    invalidPlist(content, doctype, 'a DOCTYPE with declarations (entities) is not accepted; Apple\'s plist DOCTYPE names only the public DTD');
  }
}

export function readPlist(content: string, limits: DocumentLimits): PlistNode {
  checkDoctype(content);
  interface Frame {
    name: string;
    start: number;
    contentStart: number;
    children: PlistNode[];
  }
  const root: Frame = { name: '#document', start: 0, contentStart: 0, children: [] };
  const stack: Frame[] = [root];
  const parser: Parser = new Parser(
    {
      onopentag(name) {
        if (stack.length > limits.maxNestingDepth) throw tooComplex('the nesting of plist elements', limits.maxNestingDepth);
        const parent = stack[stack.length - 1]!;
        if (TEXT_ELEMENTS.has(parent.name)) invalidPlist(content, parser.startIndex, `<${name}> inside <${parent.name}>`);
        stack.push({ name, start: parser.startIndex, contentStart: parser.endIndex + 1, children: [] });
      },
      onclosetag(name, implied) {
        const selfClosing = content.charCodeAt(parser.endIndex - 1) === 47; /* / */
        const frame = stack.pop()!;
        if (implied && !selfClosing) invalidPlist(content, frame.start, `<${name}> is not closed before its parent's end tag`);
        const contentEnd = selfClosing ? frame.contentStart : parser.startIndex;
        const end = parser.endIndex + 1;
        const text = TEXT_ELEMENTS.has(name) ? decodeText(content, frame.contentStart, contentEnd) : '';
        stack[stack.length - 1]!.children.push({ name, start: frame.start, end, contentStart: frame.contentStart, contentEnd, children: frame.children, text });
      },
    },
    { xmlMode: true, decodeEntities: false },
  );
  parser.write(content);
  parser.end();
  if (stack.length > 1) invalidPlist(content, stack[stack.length - 1]!.start, `<${stack[stack.length - 1]!.name}> is never closed`);
  const plist = root.children.find((node) => node.name === 'plist');
  if (!plist) invalidPlist(content, 0, 'expected a <plist> root element');
  return plist;
}

/** A dict's key/value pairs, checked: each <key> is followed by one value. */
export function dictPairs(content: string, dict: PlistNode): DictPair[] {
  const pairs: DictPair[] = [];
  const children = dict.children;
  for (let i = 0; i < children.length; i += 2) {
    const key = children[i]!;
    const value = children[i + 1];
    if (key.name !== 'key') invalidPlist(content, key.start, `expected <key> in <dict>, found <${key.name}>`);
    if (!value || value.name === 'key') invalidPlist(content, key.start, `<key>${key.text}</key> has no value`);
    pairs.push({ key, value });
  }
  return pairs;
}

/** Text as it goes back inside a plist <string>. */
export function escapeXmlText(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}
