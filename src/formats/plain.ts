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

function firstNonSpace(source: string, from: number, to: number): number {
  for (let i = from; i < to; i++) if (!/\s/.test(source[i]!)) return i;
  return -1;
}

function lastNonSpace(source: string, from: number, to: number): number {
  for (let i = to - 1; i >= from; i--) if (!/\s/.test(source[i]!)) return i + 1;
  return -1;
}

function paragraphDraft(source: string, start: number, end: number): SegmentDraft {
  const text = source.slice(start, end);
  const parts: Part[] = [];
  const lineBreak = /[ \t]*\r?\n[ \t]*/g;
  let last = 0;
  for (let br = lineBreak.exec(text); br; br = lineBreak.exec(text)) {
    parts.push(...maskRun(text.slice(last, br.index), identity, { offset: start + last }));
    parts.push({ type: 'atom', bytes: { start: start + br.index, end: start + br.index + br[0].length } });
    last = br.index + br[0].length;
  }
  parts.push(...maskRun(text.slice(last), identity, { offset: start + last }));
  return { start, end, parts, kind: 'block', escape: plainEscape };
}

export const plainAdapter: FormatAdapter = {
  format: 'plain',
  extract(content) {
    return new TemplateDocument('plain', content, plainDrafts(content));
  },
};
