/**
 * Glossary terms in segment text. A term is found only in the text between segment
 * marks (never inside `<x1/>`, never across a mark) and only as a whole word: a letter,
 * digit or underscore right before or after it means it is part of a longer word
 * ("account" is not found in "accountant"). Longer terms win where terms overlap.
 *
 * Do-not-translate terms are protected like placeholders: each occurrence becomes one
 * more atomic mark `<xN/>` before an engine sees the segment, and the mark becomes the
 * term again after (protectTerms), so the term comes back exactly.
 */
import { SEGMENT_MARK_PATTERN } from './segment.js';

export interface TermMatch {
  readonly start: number;
  readonly end: number;
  /** Index of the matched term in the list given. */
  readonly term: number;
}

/** Every occurrence of `terms` in `text`, outside marks, whole words only, left to right. */
export function findTerms(text: string, terms: readonly string[], options: { ignoreCase: boolean }): TermMatch[] {
  const usable = terms.map((term, index) => ({ term, index })).filter(({ term }) => term.length > 0);
  if (usable.length === 0) return [];
  usable.sort((a, b) => b.term.length - a.term.length);
  const pattern = new RegExp(
    `(?<![\\p{L}\\p{N}_])(?:${usable.map(({ term }) => `(${escapeRegExp(term)})`).join('|')})(?![\\p{L}\\p{N}_])`,
    options.ignoreCase ? 'giu' : 'gu',
  );
  const matches: TermMatch[] = [];
  let runStart = 0;
  const scanRun = (end: number): void => {
    const run = text.slice(runStart, end);
    for (const match of run.matchAll(pattern)) {
      const group = match.slice(1).findIndex((value) => value !== undefined);
      matches.push({ start: runStart + match.index, end: runStart + match.index + match[0].length, term: usable[group]!.index });
    }
  };
  for (const mark of text.matchAll(SEGMENT_MARK_PATTERN)) {
    scanRun(mark.index);
    runStart = mark.index + mark[0].length;
  }
  scanRun(text.length);
  return matches;
}

/** Whether `text` contains `term` anywhere, ignoring case (a model's answer, checked for a required term). */
export function containsTerm(text: string, term: string): boolean {
  return text.toLocaleLowerCase().includes(term.toLocaleLowerCase());
}

export interface ProtectedText {
  /** The text with each protected occurrence replaced by a new `<xN/>` mark. */
  readonly text: string;
  /** Turns the added marks of a translation back into the terms they stand for. */
  restore(translated: string): string;
}

/** Replaces every occurrence of `terms` (exact case) with a new atomic mark numbered after the text's own. */
export function protectTerms(text: string, terms: readonly string[]): ProtectedText | undefined {
  const matches = findTerms(text, terms, { ignoreCase: false });
  if (matches.length === 0) return undefined;
  let next = highestMarkNumber(text) + 1;
  const originals = new Map<string, string>();
  let out = '';
  let last = 0;
  for (const match of matches) {
    const mark = `<x${next++}/>`;
    originals.set(mark, text.slice(match.start, match.end));
    out += text.slice(last, match.start) + mark;
    last = match.end;
  }
  out += text.slice(last);
  return {
    text: out,
    restore: (translated) => translated.replace(/<x\d+\/>/g, (mark) => originals.get(mark) ?? mark),
  };
}

function highestMarkNumber(text: string): number {
  let highest = 0;
  for (const mark of text.matchAll(SEGMENT_MARK_PATTERN)) highest = Math.max(highest, Number(/\d+/.exec(mark[0])![0]));
  return highest;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
