/**
 * The prompt every model engine sends: one fixed, versioned system block (identical for
 * every call) and a compact user message in two parts. The first part carries what the
 * calls of one request share for a chunk — source language, format and the segments —
 * and the second what varies between them: targets, plural categories, a repair's fix
 * list. Calls that split a chunk's targets between them therefore send the same bytes
 * up to the targets line, and with the same answer schema (its `lang` enum lists every
 * target of the request) that prefix is what providers' prompt caches reuse: OpenAI on
 * its own for prefixes of 1,024 tokens and more, Anthropic where the client marks it
 * (anthropic.ts). See docs/decisions/0012-latency-planned-model-calls.md.
 *
 * The segments are `segments (<count>):` and then one line per segment holding only its
 * text, with JSON string escapes so that a segment is always one line. A segment is
 * known by its position: line 1 is the first segment of this message. Measured on the
 * bench corpus (docs/benchmarks.md, "Prompt tokens"), a JSON envelope per segment
 * (`{"id":…,"text":…}`) cost 40–150% on top of the text, numbered lines (`12 text`)
 * 3–21%, and bare lines 0–7%. Segment `ctx` hints (JSON key paths, `h2`) are not sent for
 * the same reason: they cost as much as the short strings they describe.
 *
 * The answer is JSON grouped by target (docs/engine-notes.md b4), each target an array of
 * strings in the order of the lines, so a truncated reply still holds the targets
 * completed before the cut and an aligned prefix of the one that was cut. A request of
 * one target is answered keyed by its code, `{"de":[…]}`, a smaller wrapper with the same
 * schema for every call (docs/decisions/0123-keyed-answer-for-one-target.md). Without
 * numbers a skipped or merged line is caught by the count (validate.ts; what it cannot
 * see: docs/decisions/0005-unnumbered-segment-lines.md). No open maps in the schema, so
 * OpenAI strict mode and Anthropic tool input accept it.
 */
import type { EngineLanguage, EngineSegment, Formality, GlossaryTerm } from './engine.js';
import type { Format } from '../segments/format-name.js';
import { describePluralExamples, type PluralType } from '../plurals/index.js';

/** Part of any cache key built over model output: change it whenever the wording changes. */
export const PROMPT_VERSION = 'mt-2026-11-v8';

/** The one tool (Anthropic) / schema name the answer is delivered through. */
export const ANSWER_NAME = 'submit_translations';

export const SYSTEM_PROMPT = `You are a professional translator for a software and content localization service.
The user message has header lines, then "segments (N):" and N segment lines, then the lines that say what to do with them.
- "source:" the source language as "Name (code)". When there is no source line, identify the language yourself.
- "format:" the kind of document the segments come from (plain, markdown, html or json; json segments are UI strings and other values in key order).
- "formality:" (optional) formal or informal: address the reader so in targets that have such forms.
- "context:" (optional) an escaped note on the segments: use it to choose meaning and terms, never translate or answer it.
- "notes:" (optional) a JSON object from a segment's number (1-based, in the list) to what its file says about it (a developer's note, the key it sits under): use it to choose meaning and terms, never translate or answer it.
- Each segment line is one segment's text with JSON string escapes (\\n is a line break, \\\\ a backslash), in reading order: use neighbouring lines as context, but never merge, split, skip or reorder lines.
- After the N segment lines: "targets:" the target languages, each "Name (code)"; "plurals:" and "branches:" (optional) each target's plural categories with example numbers, and the <gN> pairs added for them; "glossary:" (optional) a JSON object of source term → target code → required translation.
Translate every segment into EACH target language.
Rules:
1. <gN>...</gN> wrap formatted text: keep every pair exactly once and properly nested; you may move a pair to fit the target word order. <xN/> stand for content that must not change: keep each exactly once; you may move it. Never translate, renumber, add or remove these tags.
2. Keep line breaks exactly: never add a line break to a segment that has none. Keep leading and trailing spaces. Add no explanations, notes, quotes or trailing periods that the source does not have.
3. Do not translate code, URLs, e-mail addresses, file names or placeholders such as {name}, {{name}}, %s, %1$s or :name.
4. Plurals: each <gN> pair of a counted message is one form; an <xN/> in it is the number. A pair in "branches:" is a form the target needs (a copy of the source's other): word it for its category's numbers in "plurals:". Keep every pair.
5. If a segment has nothing to translate, copy it unchanged.
6. Reply with JSON only, without code fences or commentary, in exactly this shape, with every target code and per target exactly N strings, one per line, in order:
{"translations":[{"lang":"<target code>","segments":["<translation of line 1>","<translation of line 2>"]}]}
With only one target, reply {"<target code>":[…]} instead, the same strings in the array.
7. Glossary: wherever a segment contains a glossary term (in any letter case), its translation into a target listed for that term must use the given translation, inflected only where grammar requires.
8. A "fix:" line lists problems of your earlier answer: "line" is a line of this message and "previous" what you answered for it; an entry without "line" concerns the whole target. Answer with every line for every listed target, correcting those problems.`;

export interface PromptInput {
  readonly segments: readonly EngineSegment[];
  readonly targets: readonly EngineLanguage[];
  readonly source?: EngineLanguage;
  readonly format: Format;
  /** Glossary terms occurring in these segments; only the translations into these targets are sent. */
  readonly glossary?: readonly GlossaryTerm[];
  readonly formality?: Formality;
  readonly context?: string;
}

/** One thing the previous answer got wrong, as the repair message states it. */
export interface FixRequest {
  /** Absent when the problem concerns the whole answer (it was not JSON). */
  readonly lang?: string;
  /** 1-based position of the segment's line in the message that carries this entry; absent for the whole target. */
  readonly line?: number;
  readonly problem: string;
  /** What the model returned for it, when it returned anything. */
  readonly previous?: string;
}

/** The two parts of a user message; see buildUserParts. */
export interface UserParts {
  readonly prefix: string;
  readonly rest: string;
}


export function languageLabel(language: EngineLanguage): string {
  return `${language.name} (${language.code})`;
}

/**
 * The user message in its two parts (the message is `prefix`, a line break, `rest`):
 * `prefix` is the source, format, formality and context lines, `segments (<count>):` and one escaped line
 * per segment, the same for every call of a request over these segments; `rest` is the
 * targets line, the plural categories when a segment has an ICU plural, and a repair's
 * fix list.
 */
export function buildUserParts(input: PromptInput, fix?: readonly FixRequest[]): UserParts {
  const shared: string[] = [];
  if (input.source) shared.push(`source: ${languageLabel(input.source)}`);
  shared.push(`format: ${input.format}`);
  // Both are the same for every call of a request, so they belong to the cached prefix.
  if (input.formality) shared.push(`formality: ${input.formality}`);
  if (input.context) shared.push(`context: ${escapeSegmentText(input.context)}`);
  shared.push(`segments (${input.segments.length}):`);
  for (const segment of input.segments) shared.push(escapeSegmentText(segment.text));
  const notes = notesLine(input.segments);
  if (notes) shared.push(`notes: ${notes}`);
  const rest: string[] = [`targets: ${input.targets.map(languageLabel).join(', ')}`];
  const plurals = pluralLines(input.segments, input.targets);
  if (plurals) rest.push(...plurals);
  const glossary = glossaryLine(input.glossary ?? [], input.targets);
  if (glossary) rest.push(`glossary: ${glossary}`);
  if (fix && fix.length > 0) rest.push(`fix: ${JSON.stringify(fix)}`);
  return { prefix: shared.join('\n'), rest: rest.join('\n') };
}

/** `{"3":"checkout.pay_button"}`: each noted segment's number and note; undefined when none has one. */
function notesLine(segments: PromptInput['segments']): string | undefined {
  let notes: Record<string, string> | undefined;
  segments.forEach((segment, i) => {
    if (segment.note) (notes ??= {})[String(i + 1)] = segment.note;
  });
  return notes && JSON.stringify(notes);
}

/** `{"account":{"fr":"compte"}}` for the targets of the call; undefined when no term has a translation for them. */
function glossaryLine(glossary: readonly GlossaryTerm[], targets: readonly EngineLanguage[]): string | undefined {
  const byTerm: Record<string, Record<string, string>> = {};
  for (const entry of glossary) {
    const wanted = targets.filter((target) => entry.translations[target.code] !== undefined);
    if (wanted.length > 0) byTerm[entry.term] = Object.fromEntries(wanted.map((target) => [target.code, entry.translations[target.code]!]));
  }
  return Object.keys(byTerm).length > 0 ? JSON.stringify(byTerm) : undefined;
}

/** The user message as one text: `prefix`, a line break, `rest`. */
export function buildUserMessage(input: PromptInput, fix?: readonly FixRequest[]): string {
  return joinUserParts(buildUserParts(input, fix));
}

export function joinUserParts(parts: UserParts): string {
  return `${parts.prefix}\n${parts.rest}`;
}

/**
 * JSON string escapes for backslashes and control characters, so one segment is always
 * one line. Quotes stay as they are: escaping them would cost a token each.
 */
export function escapeSegmentText(text: string): string {
  return text.replace(/[\\\u0000-\u001f\u2028\u2029]/g, (char) => SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * The `plurals:` and `branches:` lines when branches were added for the targets: per
 * target and kind of count, its categories with example numbers from Intl (plurals/), and
 * per line the added pairs by category. (The segments already have exactly the branches
 * the call's targets need: translation/ shapes them. A target whose forms are the
 * source's gets neither line: nothing to word anew, and no tokens spent.)
 */
function pluralLines(segments: readonly EngineSegment[], targets: readonly EngineLanguage[]): string[] | undefined {
  // Lines with the same added pairs are listed together (a catalog repeats a few shapes).
  const linesByBranches = new Map<string, number[]>();
  const types = new Set<PluralType>();
  segments.forEach((segment, index) => {
    const branches = segment.pluralBranches;
    if (branches === undefined || branches.length === 0) return;
    for (const branch of branches) types.add(branch.type);
    const list = branches.map((b) => `<g${b.pair}> ${b.selector}${b.type === 'ordinal' ? ' (ordinal)' : ''}`).join(', ');
    if (!linesByBranches.has(list)) linesByBranches.set(list, []);
    linesByBranches.get(list)!.push(index + 1);
  });
  if (linesByBranches.size === 0) return undefined;
  const forms = targets.flatMap((target) =>
    [...types].sort().map((type) => `${target.code}${type === 'ordinal' ? ' (ordinal)' : ''} ${describePluralExamples(target.code, type).join(' | ')}`),
  );
  const branches = [...linesByBranches].map(([list, lines]) => `${list} on ${lines.length === 1 ? 'line' : 'lines'} ${lineRanges(lines)}`);
  return [`plurals: ${forms.join('; ')}`, `branches: ${branches.join('; ')}`];
}

/** `1-3, 5, 7-8` for [1, 2, 3, 5, 7, 8] (ascending). */
function lineRanges(lines: readonly number[]): string {
  const ranges: string[] = [];
  for (let i = 0; i < lines.length; ) {
    let j = i;
    while (j + 1 < lines.length && lines[j + 1] === lines[j]! + 1) j++;
    ranges.push(j === i ? `${lines[i]}` : `${lines[i]}-${lines[j]}`);
    i = j + 1;
  }
  return ranges.join(', ');
}

/**
 * Whether a request's calls are answered keyed by the target code (`{"de":[…]}`): when the
 * request has one target, so that every call of it shares the schema. The planner counts
 * the answer's wrapper by the same rule (translation/plan.ts).
 */
export function keyedAnswer(requestTargets: number): boolean {
  return requestTargets === 1;
}

/**
 * JSON Schema of the answer, for OpenAI `response_format: json_schema` (strict) and the
 * Anthropic tool's `input_schema`, given every target of the request: for one target an
 * object whose one property is its code, an array of strings; for several, per target a
 * group of `lang` (the only enum) and its array of strings. The number of strings is
 * checked in code (validate.ts). Both are closed objects with every property required,
 * as OpenAI strict mode asks.
 */
export function answerSchema(targetCodes: readonly string[]): Record<string, unknown> {
  const strings = { type: 'array', items: { type: 'string' } };
  if (keyedAnswer(targetCodes.length)) {
    const code = targetCodes[0]!;
    return { type: 'object', additionalProperties: false, required: [code], properties: { [code]: strings } };
  }
  return {
    type: 'object',
    additionalProperties: false,
    required: ['translations'],
    properties: {
      translations: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['lang', 'segments'],
          properties: {
            lang: { type: 'string', enum: [...targetCodes] },
            segments: strings,
          },
        },
      },
    },
  };
}
