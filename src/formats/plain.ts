/**
 * Plain text: paragraphs (runs of non-blank lines) are segments. A line break inside a
 * paragraph, with the spaces around it, is an atomic token, so line count and
 * indentation come back exactly; blank lines and outer whitespace stay in the template.
 */
import { plainEscape } from './escape.js';
import type { FormatAdapter } from './format.js';
import { maskRun } from './placeholders.js';
import { TemplateDocument } from './template.js';
import type { Part, SegmentDraft } from './template.js';

const identity = (text: string): string => text;

/** Drafts for the paragraphs of `source` between `from` and `to`. */
export function plainDrafts(source: string, from = 0, to = source.length): SegmentDraft[] {
  const drafts: SegmentDraft[] = [];
  let paraStart = -1;
  let paraEnd = -1;
  // Walk line by line; a paragraph is a maximal run of lines that are not blank.
  for (let lineStart = from; lineStart < to; ) {
    let lineEnd = source.indexOf('\n', lineStart);
    if (lineEnd === -1 || lineEnd > to) lineEnd = to;
    const first = firstNonSpace(source, lineStart, lineEnd);
    if (first === -1) {
      if (paraStart !== -1) drafts.push(paragraphDraft(source, paraStart, paraEnd));
      paraStart = -1;
    } else {
      if (paraStart === -1) paraStart = first;
      paraEnd = lastNonSpace(source, lineStart, lineEnd);
    }
    lineStart = lineEnd + 1;
  }
  if (paraStart !== -1) drafts.push(paragraphDraft(source, paraStart, paraEnd));
  return drafts;
}

const SPACE = /\s/;
/** ASCII fast path; anything else asks the regex (Unicode spaces count too). */
function isSpace(source: string, i: number): boolean {
  const c = source.charCodeAt(i);
  if (c === 32 || (c >= 9 && c <= 13)) return true;
  return c > 127 && SPACE.test(source[i]!);
}

function firstNonSpace(source: string, from: number, to: number): number {
  for (let i = from; i < to; i++) if (!isSpace(source, i)) return i;
  return -1;
}

function lastNonSpace(source: string, from: number, to: number): number {
  for (let i = to - 1; i >= from; i--) if (!isSpace(source, i)) return i + 1;
  return -1;
}

const LINE_BREAK = /[ \t]*\r?\n[ \t]*/g;

function paragraphDraft(source: string, start: number, end: number): SegmentDraft {
  const text = source.slice(start, end);
  const parts: Part[] = [];
  const lineBreak = LINE_BREAK;
  lineBreak.lastIndex = 0;
  let last = 0;
  for (let br = lineBreak.exec(text); br; br = lineBreak.exec(text)) {
    maskRun(text.slice(last, br.index), identity, { offset: start + last }, {}, parts);
    parts.push({ type: 'atom', bytes: { start: start + br.index, end: start + br.index + br[0].length } });
    last = br.index + br[0].length;
  }
  maskRun(text.slice(last), identity, { offset: start + last }, {}, parts);
  return { start, end, parts, kind: 'block', escape: plainEscape };
}

export const plainAdapter: FormatAdapter = {
  format: 'plain',
  extract(content) {
    return new TemplateDocument('plain', content, plainDrafts(content));
  },
};
