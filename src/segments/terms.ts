/**
 * Glossary terms in segment text. A term is found only in the text between segment
 * marks (never inside `<x1/>`, never across a mark) and only as a whole word: a letter,
 * digit or underscore right before or after it means it is part of a longer word
 * ("account" is not found in "accountant"). Longer terms win where terms overlap.
 * Do-not-translate terms are matched exactly, glossary entries ignoring case
 * (docs/glossaries.md).
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

/** Letters, combining marks, digits and underscore: what makes a match part of a longer word. */
const WORD_CHAR = /[\p{L}\p{M}\p{N}_]/u;

interface Candidate {
  readonly folded: string;
  readonly index: number;
}

/**
 * Finds a fixed list of terms in many texts. Built once per list (a glossary of 5,000
 * terms is matched against every segment of a 2 MiB document): terms are indexed by
 * their first word, so each word of a text is one map lookup plus a comparison per term
 * sharing that first word — linear in the text, whatever the number of terms. (One
 * regular expression alternating 5,000 terms tries each of them at every word.)
 */
export class TermMatcher {
  private readonly byFirstWord = new Map<string, Candidate[]>();
  /** Terms that start with a character that is not a word character (".NET"): tried at every such position. */
  private readonly others: Candidate[] = [];
  private readonly fold: (text: string) => string;

  constructor(terms: readonly string[], options: { readonly ignoreCase: boolean }) {
    this.fold = options.ignoreCase ? (text) => text.toLowerCase() : (text) => text;
    terms.forEach((term, index) => {
      if (term.length === 0) return;
      const folded = this.fold(term);
      const first = wordAt(folded, 0);
      if (first === 0) {
        this.others.push({ folded, index });
        return;
      }
      const key = folded.slice(0, first);
      const list = this.byFirstWord.get(key) ?? [];
      list.push({ folded, index });
      this.byFirstWord.set(key, list);
    });
    // Longer terms win where terms overlap.
    for (const list of this.byFirstWord.values()) list.sort((a, b) => b.folded.length - a.folded.length);
    this.others.sort((a, b) => b.folded.length - a.folded.length);
  }

  get empty(): boolean {
    return this.byFirstWord.size === 0 && this.others.length === 0;
  }

  /** Every occurrence in `text`, outside marks, whole words only, left to right, not overlapping. */
  find(text: string): TermMatch[] {
    const matches: TermMatch[] = [];
    if (this.empty) return matches;
    let runStart = 0;
    for (const mark of text.matchAll(SEGMENT_MARK_PATTERN)) {
      this.scanRun(text, runStart, mark.index, matches);
      runStart = mark.index + mark[0].length;
    }
    this.scanRun(text, runStart, text.length, matches);
    return matches;
  }

  private scanRun(text: string, start: number, end: number, matches: TermMatch[]): void {
    let i = start;
    while (i < end) {
      const wordEnd = i + wordAt(text, i, end);
      const candidates = wordEnd > i ? this.byFirstWord.get(this.fold(text.slice(i, wordEnd))) : undefined;
      // A term starting with a word character may only start a word; one that starts otherwise only after a non-word character.
      const atBoundary = i === start || !WORD_CHAR.test(text[i - 1]!);
      const found = atBoundary ? this.matchAt(text, i, end, wordEnd > i ? (candidates ?? []) : this.others) : undefined;
      if (found) {
        matches.push({ start: i, end: i + found.folded.length, term: found.index });
        i += found.folded.length;
      } else {
        i = wordEnd > i ? wordEnd : i + 1;
      }
    }
  }

  private matchAt(text: string, at: number, end: number, candidates: readonly Candidate[]): Candidate | undefined {
    for (const candidate of candidates) {
      const stop = at + candidate.folded.length;
      if (stop > end) continue;
      if (stop < end && WORD_CHAR.test(text[stop]!)) continue;
      if (this.fold(text.slice(at, stop)) === candidate.folded) return candidate;
    }
    return undefined;
  }
}

/** The length of the run of word characters at `at` (0 when `at` is not a word character). */
function wordAt(text: string, at: number, end = text.length): number {
  let i = at;
  while (i < end && WORD_CHAR.test(text[i]!)) i++;
  return i - at;
}

/** Every occurrence of `terms` in `text`, outside marks, whole words only, left to right (a one-off TermMatcher). */
export function findTerms(text: string, terms: readonly string[], options: { ignoreCase: boolean }): TermMatch[] {
  return new TermMatcher(terms, options).find(text);
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

/** Replaces every occurrence of the matcher's terms with a new atomic mark numbered after the text's own. */
export function protectTerms(text: string, terms: TermMatcher): ProtectedText | undefined {
  const matches = terms.find(text);
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
