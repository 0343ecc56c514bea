/**
 * Reads an XLIFF 1.2 or 2.0 file into its units with the source ranges a writer needs:
 * each `<source>`'s content, its `<target>` (or where one goes), the `<segment>` (2.0)
 * or `<target>` (1.2) start tag that carries `state`, the `<note>`s, and the start tags
 * that carry `target-language` / `trgLang`. Tokenized by htmlparser2 in XML mode, which
 * reports where each tag lies and rewrites nothing; an element closed by another's end
 * tag, or left open, and an end tag with no element open to close, are refused with
 * their line.
 */
import { Parser } from 'htmlparser2';
import { tooComplex } from '../core/limits.js';
import type { DocumentLimits } from '../core/limits.js';
import { invalidContent, lineAt } from '../core/invalid.js';

export interface TagRange {
  /** The start tag `<name …>` (or the whole empty element `<name …/>`). */
  readonly start: number;
  readonly end: number;
  readonly selfClosing: boolean;
}

export interface XliffUnit {
  readonly id: string;
  readonly translate: boolean;
  /** The content of `<source>`, between its tags. */
  readonly sourceStart: number;
  readonly sourceEnd: number;
  /** The `</source>` end tag's end, and the white space before `<source>` on its line. */
  readonly afterSource: number;
  readonly sourceIndent: string;
  readonly target?: { readonly tag: TagRange; readonly contentStart: number; readonly contentEnd: number; readonly endTagEnd: number };
  /** 2.0: the `<segment>` start tag, which carries `state`. */
  readonly segment?: TagRange;
  readonly notes: string[];
  /**
   * The unit element, from its start tag to its end tag's end, when it holds one segment
   * (what `sync` cuts out of a request or copies into a target).
   */
  readonly element?: readonly [start: number, end: number];
}

export interface XliffFile {
  readonly version: '1.2' | '2.0';
  /** Start tags with the language attributes: `<file>` (1.2), `<xliff>` (2.0). */
  readonly languageTags: readonly TagRange[];
  readonly sourceLanguage?: string;
  readonly units: readonly XliffUnit[];
}

function invalid(content: string, at: number, what: string): never {
  return invalidContent('valid XLIFF', content, at, what);
}

export function readXliff(content: string, limits: DocumentLimits): XliffFile {
  let version: '1.2' | '2.0' | undefined;
  let sourceLanguage: string | undefined;
  const languageTags: TagRange[] = [];
  const units: XliffUnit[] = [];
  const stack: string[] = [];
  /** Where each open element starts, for the line of an error. */
  const opened: number[] = [];
  let unit: { id: string; translate: boolean; notes: string[]; start: number; segments: number; segment?: TagRange; source?: { start: number; end?: number; afterSource?: number; indent: string }; target?: XliffUnit['target'] } | undefined;
  let target: { tag: TagRange; contentStart: number } | undefined;
  let note: { start: number } | undefined;
  let unitDepth = -1;
  /** `end`: where the unit element ends, once it does. */
  const pushUnit = (end?: number): void => {
    if (!unit) return;
    if (unit.source?.end !== undefined) {
      units.push({
        id: unit.id,
        translate: unit.translate,
        sourceStart: unit.source.start,
        sourceEnd: unit.source.end,
        afterSource: unit.source.afterSource!,
        sourceIndent: unit.source.indent,
        target: unit.target,
        segment: unit.segment,
        notes: unit.notes,
        ...(end !== undefined && unit.segments <= 1 ? { element: [unit.start, end] as const } : {}),
      });
    }
  };
  const parser: Parser = new Parser(
    {
      onopentag(name, attributes) {
        const tag: TagRange = { start: parser.startIndex, end: parser.endIndex + 1, selfClosing: content.charCodeAt(parser.endIndex - 1) === 47 /* / */ };
        if (stack.length >= limits.maxNestingDepth) throw tooComplex('the nesting of XML elements', limits.maxNestingDepth);
        stack.push(name);
        opened.push(tag.start);
        const local = name.replace(/^.*:/, '');
        if (local === 'xliff' && stack.length === 1) {
          version = attributes.version?.startsWith('2') ? '2.0' : '1.2';
          if (version === '2.0') {
            languageTags.push(tag);
            sourceLanguage = attributes.srcLang;
          }
        } else if (local === 'file' && version === '1.2') {
          languageTags.push(tag);
          sourceLanguage ??= attributes['source-language'];
        } else if ((local === 'trans-unit' && version === '1.2') || (local === 'unit' && version === '2.0')) {
          pushUnit();
          unit = { id: attributes.id ?? '', translate: attributes.translate !== 'no', notes: [], start: tag.start, segments: 0 };
          unitDepth = stack.length;
        } else if (unit && local === 'segment' && version === '2.0') {
          // A unit of several segments: each is translated on its own, under the unit's notes.
          if (unit.source) {
            const { notes, start, segments } = unit;
            pushUnit();
            unit = { id: unit.id, translate: unit.translate, notes, start, segments };
          }
          unit.segments++;
          unit.segment = tag;
        } else if (unit && local === 'source' && stack.length === (version === '2.0' ? unitDepth + 2 : unitDepth + 1) && !unit.source) {
          unit.source = { start: tag.end, indent: indentBefore(content, tag.start) };
          if (tag.selfClosing) unit.source.end = tag.end;
        } else if (unit && local === 'target' && unit.source?.end !== undefined && !unit.target && !target) {
          target = { tag, contentStart: tag.end };
          if (tag.selfClosing) {
            unit.target = { tag, contentStart: tag.end, contentEnd: tag.end, endTagEnd: tag.end };
            target = undefined;
          }
        } else if (unit && local === 'note') {
          note = { start: tag.end };
        }
      },
      onclosetag(name, implied) {
        const start = parser.startIndex;
        const end = parser.endIndex + 1;
        const selfClosing = content.charCodeAt(parser.endIndex - 1) === 47;
        if (implied && !selfClosing) invalid(content, opened[opened.length - 1] ?? start, `<${name}> is not closed before its parent's end tag (line ${lineAt(content, start)})`);
        stack.pop();
        opened.pop();
        const local = name.replace(/^.*:/, '');
        if (unit?.source && unit.source.end === undefined && local === 'source') {
          unit.source.end = start;
          unit.source.afterSource = end;
        } else if (unit && target && local === 'target') {
          unit.target = { tag: target.tag, contentStart: target.contentStart, contentEnd: start, endTagEnd: end };
          target = undefined;
        } else if (unit && note && local === 'note') {
          unit.notes.push(decodeXmlText(content.slice(note.start, start)).trim());
          note = undefined;
        } else if (unit && stack.length === unitDepth - 1) {
          pushUnit(end);
          unit = undefined;
          unitDepth = -1;
        }
      },
    },
    { xmlMode: true, decodeEntities: false },
  );
  // An end tag that closes no open element is dropped by htmlparser2 (HTML's recovery);
  // XML calls such a file not well-formed, so it is refused here, at the tokenizer's call.
  const closeTag = parser.onclosetag.bind(parser);
  parser.onclosetag = (start: number, endIndex: number): void => {
    // (One write of the whole content: the tokenizer's offsets are the content's.)
    const name = content.slice(start, endIndex);
    if (!stack.includes(name)) invalid(content, start, `</${name}> closes no open element`);
    closeTag(start, endIndex);
  };
  parser.write(content);
  parser.end();
  if (stack.length > 0) invalid(content, opened[opened.length - 1]!, `<${stack[stack.length - 1]}> is never closed`);
  if (!version) invalid(content, 0, 'expected an <xliff> root element');
  return { version, languageTags, sourceLanguage, units };
}

const XML_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Text content with its tags dropped and XML's references decoded (a note, for the model). */
function decodeXmlText(raw: string): string {
  return raw
    .replace(/<[^>]*>/g, '')
    .replace(/&(?:#(\d+)|#x([0-9a-fA-F]+)|(\w+));/g, (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) =>
      dec ? String.fromCodePoint(Number(dec)) : hex ? String.fromCodePoint(parseInt(hex, 16)) : (XML_ENTITIES[name!] ?? whole),
    );
}

/** The white space between the line start and `at`, or '' when something else comes first on the line (read backwards, never past it). */
function indentBefore(content: string, at: number): string {
  let i = at;
  while (i > 0 && (content[i - 1] === ' ' || content[i - 1] === '\t')) i--;
  return i === 0 || content[i - 1] === '\n' ? content.slice(i, at) : '';
}
