/**
 * Levels 2 and 3 of answer checking (docs/engine-notes.md b5). A call sends N lines (segments)
 * for T targets; the answer holds, per target, an array of strings in the order of the
 * lines, keyed by the target's code or in a group with its `lang` (prompt.ts). Per target:
 *
 *  - Alignment: the array must have exactly N strings. Segments carry no ids on the wire
 *    (prompt.ts), so an array of another length means lines were skipped, merged or
 *    split somewhere and no entry can be trusted to belong to its line: nothing of that
 *    target is accepted and the problem concerns the whole target. The exception is a
 *    reply cut at the output limit: its last target is an aligned prefix, of which every
 *    entry but the last (which may itself be cut) is checked, and the lines after it are
 *    missing. See docs/decisions/0005-unnumbered-segment-lines.md for what the count
 *    cannot see.
 *  - Per entry: does each translation keep its tokens (`markProblem`), stay on one line
 *    where it must, and say something? Entries that pass are accepted; the others become
 *    problems that say exactly what was wrong, for the repair call.
 *
 * Before judging tokens, harmless spelling variants that models produce (`<x1>`,
 * `< /g1>`, `<G1>`, full-width `＜x1／＞`, `&lt;x1/&gt;`) are normalised, but only to
 * tokens the source really has, so literal text is never rewritten.
 */
import { markProblem, marksOf } from '../segments/segment.js';
import type { EngineSegment } from './engine.js';

export type ProblemKind = 'invalid-json' | 'missing' | 'count' | 'tokens' | 'line-break' | 'empty';

/**
 * Something an answer got wrong. With `lang` and `id`: one (target, segment) pair. With
 * `lang` only: the whole target (absent, or an array of the wrong length). With neither:
 * the whole answer (not JSON of the required shape).
 */
export interface AnswerProblem {
  readonly kind: ProblemKind;
  readonly lang?: string;
  /** The segment's id (not its line number: the line depends on the message). */
  readonly id?: string;
  readonly problem: string;
  /** What the model returned for the pair, when it returned anything. */
  readonly previous?: string;
}

export interface AnswerCheck {
  /** target code → segment id → translation, for the pairs that passed. */
  readonly accepted: Map<string, Map<string, string>>;
  readonly problems: AnswerProblem[];
}

const INVALID_JSON_PROBLEM = 'the answer was not valid JSON in the required shape';
const MISSING_PROBLEM = 'missing from the answer';

interface AnswerGroup {
  readonly lang: string;
  readonly entries: readonly unknown[];
}

/**
 * Checks `answer` (a parsed JSON value, or undefined when none could be parsed) against
 * the `segments` of the message, in line order, translated into `langs`. With
 * `truncated`, the answer's last group is taken as cut: a reply stopped at the output
 * limit may end inside that group's last string, and jsonrepair would close it silently.
 */
export function checkAnswer(
  answer: unknown,
  segments: readonly EngineSegment[],
  langs: readonly string[],
  truncated = false,
): AnswerCheck {
  const accepted = new Map<string, Map<string, string>>();
  const read = readGroups(answer, langs);
  if (read === undefined) {
    return { accepted, problems: [{ kind: 'invalid-json', problem: INVALID_JSON_PROBLEM }] };
  }
  const cut = truncated ? read.last : undefined;

  // First group per target wins; lang is matched case-insensitively (pt-br, pt-BR).
  const groups = new Map<string, AnswerGroup>();
  for (const group of read.groups) {
    const key = group.lang.toLowerCase();
    if (!groups.has(key)) groups.set(key, group);
  }

  const problems: AnswerProblem[] = [];
  const expected = segments.length;
  for (const lang of langs) {
    const group = groups.get(lang.toLowerCase());
    if (!group) {
      problems.push({ kind: 'missing', lang, problem: MISSING_PROBLEM });
      continue;
    }
    let entries = group.entries;
    if (group === cut) {
      // The last entry may be cut short; the ones before it are complete and in line order.
      entries = entries.slice(0, -1);
      if (entries.length > expected) {
        problems.push(countProblem(lang, expected, entries.length, true));
        continue;
      }
    } else if (entries.length !== expected) {
      problems.push(countProblem(lang, expected, entries.length, false));
      continue;
    }
    const byId = new Map<string, string>();
    segments.forEach((segment, index) => {
      const entry = entries[index];
      if (typeof entry !== 'string') {
        problems.push({ kind: 'missing', lang, id: segment.id, problem: MISSING_PROBLEM });
        return;
      }
      const fixed = normaliseTokens(segment.text, entry);
      const problem = segmentProblem(segment, fixed);
      if (problem) problems.push({ kind: problem.kind, lang, id: segment.id, problem: problem.problem, previous: entry });
      else byId.set(segment.id, fixed);
    });
    if (byId.size > 0) accepted.set(lang, byId);
  }
  return { accepted, problems };
}

function countProblem(lang: string, expected: number, got: number, cut: boolean): AnswerProblem {
  const translations = expected === 1 ? 'translation' : 'translations';
  const problem = cut
    ? `expected ${expected} ${translations}, got more than ${expected}`
    : `expected ${expected} ${translations}, got ${got}`;
  return { kind: 'count', lang, problem };
}

/** What is wrong with `text` as the translation of `segment`, or null: the per-entry check every engine's answers pass. */
export function segmentProblem(segment: EngineSegment, text: string): { kind: ProblemKind; problem: string } | null {
  if (text.trim() === '' && segment.text.trim() !== '') return { kind: 'empty', problem: 'the translation is empty' };
  const tokens = markProblem(segment.text, text);
  if (tokens) return { kind: 'tokens', problem: pluralProblem(segment, text) ?? tokens };
  if (segment.singleLine && /[\r\n]/.test(text) && !/[\r\n]/.test(segment.text)) {
    return { kind: 'line-break', problem: 'must stay on one line, without line breaks' };
  }
  return null;
}

/**
 * Reads either answer shape loosely (prompt.ts): grouped, `{translations:[{lang,
 * segments:[string…]}]}`, where groups without a string `lang` or an array `segments` are
 * skipped; or keyed, `{de:[string…]}`, where a property named by one of `langs` (in any
 * letter case) whose value is an array is a group, and an object with no such property is
 * not an answer. `last` is the answer's last element when it is a readable group (the one
 * a cut would have hit; the order of the answer's text is kept, as target codes are never
 * array indices).
 */
function readGroups(answer: unknown, langs: readonly string[]): { groups: AnswerGroup[]; last?: AnswerGroup } | undefined {
  if (!isRecord(answer)) return undefined;
  const groups: AnswerGroup[] = [];
  let last: AnswerGroup | undefined;
  if (!Array.isArray(answer.translations)) {
    const wanted = new Set(langs.map((lang) => lang.toLowerCase()));
    for (const [lang, entries] of Object.entries(answer)) {
      last = undefined;
      if (!Array.isArray(entries) || !wanted.has(lang.toLowerCase())) continue;
      last = { lang, entries };
      groups.push(last);
    }
    return groups.length > 0 ? { groups, ...(last ? { last } : {}) } : undefined;
  }
  for (const item of answer.translations) {
    last = undefined;
    if (!isRecord(item) || typeof item.lang !== 'string' || !Array.isArray(item.segments)) continue;
    last = { lang: item.lang, entries: item.segments };
    groups.push(last);
  }
  return { groups, ...(last ? { last } : {}) };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const TOKEN_VARIANT = /(?:<|＜|&lt;)\s*([/／]?)\s*([gGxX])\s*(\d+)\s*([/／]?)\s*(?:>|＞|&gt;)/g;

/** Rewrites token look-alikes to the exact tokens of `source`; everything else is kept. */
export function normaliseTokens(source: string, text: string): string {
  const known = new Set(marksOf(source));
  if (known.size === 0) return text;
  return text.replace(TOKEN_VARIANT, (original, closing: string, letter: string, number: string) => {
    const kind = letter.toLowerCase();
    const token = kind === 'x' ? `<x${number}/>` : closing ? `</g${number}>` : `<g${number}>`;
    return known.has(token) ? token : original;
  });
}

/**
 * For an answer that left out branches added for the target (the usual way: the
 * source's categories kept, `few` and `many` dropped): the problem said in those words,
 * so the repair call knows what to write. Undefined when they are all there (the fault
 * is another mark).
 */
function pluralProblem(segment: EngineSegment, text: string): string | undefined {
  const branches = segment.pluralBranches;
  if (branches === undefined || branches.length === 0) return undefined;
  const present = new Set(marksOf(text));
  const missing = branches.filter((b) => !present.has(`<g${b.pair}>`) || !present.has(`</g${b.pair}>`));
  if (missing.length === 0) return undefined;
  return `the plural message needs the target's forms: missing ${missing.map((b) => `<g${b.pair}> (${b.selector})`).join(', ')}; keep every pair`;
}
