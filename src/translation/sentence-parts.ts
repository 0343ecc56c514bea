/**
 * A string of several sentences whose answer alone would decide a request's time, as
 * several calls' worth of parts (docs/decisions/0122-long-string-in-sentence-parts.md).
 *
 * Hosted machine translation translates sentence by sentence; a model answers a segment
 * as one line, so a request of a few strings takes at least the call of its longest one.
 * A part is a contiguous run of the string's sentences, cut where the source language's
 * sentence rules (Intl.Segmenter, granularity 'sentence') end one, and only where the cut
 * is safe: outside every `<gN>…</gN>` pair (markup, a plural or select branch), not inside
 * a glossary term, after a sentence mark that does not look like an abbreviation. Each part
 * carries the whole string as its note, so the model reads the sentence in its context;
 * that costs input tokens, not output time. The parts' answers are joined with the
 * source's own whitespace between them.
 *
 * Nothing here knows of formats, engines' wire formats or memory: the memory keeps and
 * finds the whole string's translation, never a part's (segment-work.ts joins first).
 */
import type { EngineSegment } from '../engines/engine.js';
import { TermMatcher } from '../segments/terms.js';
import { evenShares, PART_SEPARATOR } from './plural-parts.js';

/** One sentence of a text: its characters without the whitespace around it. */
export interface SentenceSpan {
  readonly start: number;
  readonly end: number;
}

const MARK = /<(\/?)g\d+>|<x\d+\/>/g;
/** What a sentence that may be cut after ends with: a sentence mark, then closing quotes or brackets. */
const SENTENCE_END = /[.!?…。．！？](?:["'”’»)\]]*)$/u;
/**
 * A last word that reads as an abbreviation rather than a sentence's end: a capitalised
 * word of at most four letters ("Mr.", "Prof."), a single letter ("J."), or a word with a
 * dot inside ("e.g."). ICU's sentence rules in Node have no abbreviation list; a cut
 * missed only costs time, a wrong cut costs the meaning.
 */
const ABBREVIATION = /(?:^|[\s(])(?:\p{Lu}\p{Ll}{0,3}|\p{L}|\p{L}+\.\p{L}+)\.$/u;
const LETTER = /\p{L}/u;
/** Answers that end with a full-width sentence mark take no space after it (ja, zh). */
const FULL_WIDTH_END = /[。．！？]$/u;

/**
 * Longer texts are not cut: every part repeats the whole text as its note, so the input
 * grows with parts × text, and a paragraph this long is a document's, whose other
 * segments fill the slots anyway (about 1,000 tokens of English).
 */
const MAX_TEXT_CHARS = 4096;

/**
 * Makes the process load ICU's sentence break rules, which the first sentence segmenter
 * of a process loads and every later one shares, so that a request does not wait for it.
 * The composition root calls it at start-up; nothing is kept.
 */
export function loadSentenceRules(): void {
  for (const piece of new Intl.Segmenter('en', { granularity: 'sentence' }).segment('One. Two.')) void piece;
}

/**
 * The sentences of `text` that may be sent as separate parts, in order, when there are at
 * least two; undefined otherwise. `locale` is the source language's code; `terms` the
 * glossary terms that occur in the text (a cut never falls inside one).
 */
export function sentenceSpans(text: string, locale: string, terms: readonly string[] = []): SentenceSpan[] | undefined {
  if (text.length > MAX_TEXT_CHARS) return undefined;
  const blocked = blockedRanges(text, terms);
  if (blocked === undefined) return undefined;
  // Made per text, not kept (decision 0071): only a request's few candidates are looked
  // at, and once the process has loaded ICU's break rules a segmenter is cheap to make.
  let segmenter: Intl.Segmenter;
  try {
    segmenter = new Intl.Segmenter(locale, { granularity: 'sentence' });
  } catch {
    return undefined;
  }
  const spans: SentenceSpan[] = [];
  let start = -1;
  for (const piece of segmenter.segment(text)) {
    const from = piece.index + leadingSpace(piece.segment);
    const to = piece.index + piece.segment.length - trailingSpace(piece.segment);
    if (to <= from) continue;
    if (start < 0) start = from;
    const sentence = text.slice(start, to);
    const cutAt = piece.index + piece.segment.length;
    // The sentence so far ends here only where a cut is safe; otherwise the next piece joins it.
    if (cutAt < text.length && isSafeEnd(sentence, to, blocked)) {
      spans.push({ start, end: to });
      start = -1;
    }
  }
  if (start >= 0) spans.push({ start, end: text.trimEnd().length });
  // A part must have words to translate: a run of marks or digits alone stays with its neighbours.
  return spans.length >= 2 && spans.every((span) => LETTER.test(text.slice(span.start, span.end).replace(MARK, ''))) ? spans : undefined;
}

/**
 * `segment` as `count` parts (fewer when it has fewer sentences), contiguous runs of its
 * sentences balanced by `sizeOf`; each part's id is the segment's with its number, and its
 * note the whole text (after the segment's own note, if any).
 */
export function sentenceParts(
  segment: EngineSegment,
  spans: readonly SentenceSpan[],
  count: number,
  sizeOf: (text: string) => number,
): EngineSegment[] | undefined {
  if (spans.length < 2 || count < 2) return undefined;
  const shares = evenShares(spans.map((span) => sizeOf(segment.text.slice(span.start, span.end))), Math.min(count, spans.length));
  return shares.map(([from, to], index) => {
    const text = segment.text.slice(spans[from]!.start, spans[to - 1]!.end);
    const which = to - from === 1 ? `sentence ${to}` : `sentences ${from + 1}-${to}`;
    const context = `${which} of ${spans.length} in: ${segment.text}`;
    const note = segment.note ? `${segment.note}; ${context}` : context;
    return Object.assign({}, segment, { id: `${segment.id}${PART_SEPARATOR}${index}`, text, note });
  });
}

/**
 * The whole string's answer from its parts' answers (in part order): the source's text
 * before the first part, each answer, the source's whitespace between two parts, and the
 * source's text after the last. Whitespace of spaces only is dropped after an answer that
 * ends with a full-width sentence mark, as Japanese and Chinese write it.
 */
export function joinSentences(whole: string, parts: readonly string[], answers: readonly string[]): string {
  let joined = '';
  let cursor = 0;
  for (let index = 0; index < parts.length; index++) {
    const at = whole.indexOf(parts[index]!, cursor);
    const gap = whole.slice(cursor, at);
    const previous = answers[index - 1];
    joined += index > 0 && previous !== undefined && FULL_WIDTH_END.test(previous) && /^[ \t]+$/.test(gap) ? '' : gap;
    joined += answers[index]!;
    cursor = at + parts[index]!.length;
  }
  return joined + whole.slice(cursor);
}

/** The ranges a cut may not fall inside: every `<gN>` pair, every glossary term; undefined when the marks do not nest. */
function blockedRanges(text: string, terms: readonly string[]): [number, number][] | undefined {
  const ranges: [number, number][] = [];
  const open: number[] = [];
  for (const match of text.matchAll(MARK)) {
    if (match[0].startsWith('<x')) continue;
    if (match[1] === '') open.push(match.index);
    else {
      const start = open.pop();
      if (start === undefined) return undefined;
      ranges.push([start, match.index + match[0].length]);
    }
  }
  if (open.length > 0) return undefined;
  if (terms.length > 0) for (const term of new TermMatcher(terms, { ignoreCase: true }).find(text)) ranges.push([term.start, term.end]);
  return ranges;
}

/** Whether a cut right after `sentence` (ending at `end` in the text) is safe. */
function isSafeEnd(sentence: string, end: number, blocked: readonly [number, number][]): boolean {
  if (!SENTENCE_END.test(sentence) || ABBREVIATION.test(sentence)) return false;
  return !blocked.some(([from, to]) => from < end && end < to);
}

function leadingSpace(text: string): number {
  return text.length - text.trimStart().length;
}

function trailingSpace(text: string): number {
  return text.length - text.trimEnd().length;
}
