/**
 * Levels 2 and 3 of answer checking (ENGINE-NOTES b5): is every expected (target,
 * segment) pair there, and does each translation keep its tokens (`tokenProblem`), stay
 * on one line where it must, and say something? Pairs that pass are accepted; the others
 * become `FixRequest`s that say exactly what was wrong, for the repair call.
 *
 * Before judging tokens, harmless spelling variants that models produce (`<x1>`,
 * `< /g1>`, `<G1>`, full-width `＜x1／＞`, `&lt;x1/&gt;`) are normalised, but only to
 * tokens the source really has, so literal text is never rewritten.
 */
import { tokenProblem, tokensOf } from '../formats/segment.js';
import type { EngineSegment } from './engine.js';
import type { FixRequest } from './prompt.js';

export type ProblemKind = 'invalid-json' | 'missing' | 'tokens' | 'line-break' | 'empty';

export interface PairProblem extends FixRequest {
  readonly kind: ProblemKind;
  readonly lang: string;
  readonly id: string;
}

export interface ExpectedPair {
  readonly lang: string;
  readonly segment: EngineSegment;
}

export interface AnswerCheck {
  /** target code → segment id → translation, for expected pairs that passed. */
  readonly accepted: Map<string, Map<string, string>>;
  readonly problems: PairProblem[];
  /** The answer was not JSON of the expected shape at all. */
  readonly invalidJson: boolean;
}

interface AnswerPair {
  readonly lang: string;
  readonly id: string;
  readonly text: string;
}

/**
 * Checks `answer` (a parsed JSON value, or undefined when none could be parsed) against
 * `expected`. With `truncated`, the last pair of the answer is distrusted: a reply cut at
 * the output limit may end inside that translation, and jsonrepair would close it silently.
 */
export function checkAnswer(answer: unknown, expected: readonly ExpectedPair[], truncated = false): AnswerCheck {
  const pairs = readPairs(answer);
  const accepted = new Map<string, Map<string, string>>();
  if (pairs === undefined) {
    const problems = expected.map(({ lang, segment }): PairProblem => ({
      kind: 'invalid-json',
      lang,
      id: segment.id,
      problem: 'the answer was not valid JSON in the required shape',
    }));
    return { accepted, problems, invalidJson: true };
  }
  if (truncated) pairs.pop();

  // First answer per (lang, id) wins; lang is matched case-insensitively (pt-br, pt-BR).
  const answered = new Map<string, string>();
  for (const pair of pairs) {
    const key = pairKey(pair.lang, pair.id);
    if (!answered.has(key)) answered.set(key, pair.text);
  }

  const problems: PairProblem[] = [];
  for (const { lang, segment } of expected) {
    const text = answered.get(pairKey(lang, segment.id));
    if (text === undefined) {
      problems.push({ kind: 'missing', lang, id: segment.id, problem: 'missing from the answer' });
      continue;
    }
    const fixed = normaliseTokens(segment.text, text);
    const problem = segmentProblem(segment, fixed);
    if (problem) {
      problems.push({ ...problem, lang, id: segment.id, previous: text });
      continue;
    }
    let byId = accepted.get(lang);
    if (!byId) accepted.set(lang, (byId = new Map()));
    byId.set(segment.id, fixed);
  }
  return { accepted, problems, invalidJson: false };
}

function segmentProblem(segment: EngineSegment, text: string): { kind: ProblemKind; problem: string } | null {
  if (text.trim() === '' && segment.text.trim() !== '') return { kind: 'empty', problem: 'the translation is empty' };
  const tokens = tokenProblem(segment.text, text);
  if (tokens) return { kind: 'tokens', problem: tokens };
  if (segment.singleLine && /[\r\n]/.test(text) && !/[\r\n]/.test(segment.text)) {
    return { kind: 'line-break', problem: 'must stay on one line, without line breaks' };
  }
  return null;
}

function pairKey(lang: string, id: string): string {
  return `${lang.toLowerCase()}\u0000${id}`;
}

/** Reads `{translations:[{lang, segments:[{id, text}]}]}` loosely: malformed items are skipped. */
function readPairs(answer: unknown): AnswerPair[] | undefined {
  if (!isRecord(answer) || !Array.isArray(answer.translations)) return undefined;
  const pairs: AnswerPair[] = [];
  for (const group of answer.translations) {
    if (!isRecord(group) || typeof group.lang !== 'string' || !Array.isArray(group.segments)) continue;
    for (const item of group.segments) {
      if (isRecord(item) && typeof item.id === 'string' && typeof item.text === 'string') {
        pairs.push({ lang: group.lang, id: item.id, text: item.text });
      }
    }
  }
  return pairs;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const TOKEN_VARIANT = /(?:<|＜|&lt;)\s*([/／]?)\s*([gGxX])\s*(\d+)\s*([/／]?)\s*(?:>|＞|&gt;)/g;

/** Rewrites token look-alikes to the exact tokens of `source`; everything else is kept. */
export function normaliseTokens(source: string, text: string): string {
  const known = new Set(tokensOf(source));
  if (known.size === 0) return text;
  return text.replace(TOKEN_VARIANT, (original, closing: string, letter: string, number: string) => {
    const kind = letter.toLowerCase();
    const token = kind === 'x' ? `<x${number}/>` : closing ? `</g${number}>` : `<g${number}>`;
    return known.has(token) ? token : original;
  });
}
