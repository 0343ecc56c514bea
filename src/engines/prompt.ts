/**
 * The prompt every model engine sends: one fixed, versioned system block (identical for
 * every call, so provider-side prompt caching can reuse it) and a compact user message
 * that carries only what varies: languages, format and the segments.
 *
 * The user message is a few header lines and then one line per segment, `<n> <text>`,
 * with JSON string escapes inside the text. Measured on the bench corpus
 * (docs/benchmarks.md, "Prompt tokens"), a JSON envelope per segment (`{"id":…,"text":…}`
 * or even `"s12":"…"`) cost 40–150% on top of the text for markdown, HTML and UI-string
 * JSON; numbered lines cost 3–21%. Segment `ctx` hints (JSON key paths, `h2`) are not
 * sent for the same reason: they cost as much as the short strings they describe.
 * Segment numbers are the position in the chunk (1-based) and stay the same in repair
 * calls; model-engine.ts maps them back to segment ids.
 *
 * The answer is JSON grouped by target (ENGINE-NOTES b4): a truncated reply still holds
 * the targets completed before the cut. No open maps in the schema, so OpenAI strict
 * mode accepts it; segment ids are checked in code, not by enums.
 */
import type { EngineLanguage, EngineSegment } from './engine.js';
import type { Format } from '../formats/format.js';

/** Part of any cache key built over model output: change it whenever the wording changes. */
export const PROMPT_VERSION = 'mt-2026-01-v2';

/** The one tool (Anthropic) / schema name the answer is delivered through. */
export const ANSWER_NAME = 'submit_translations';

export const SYSTEM_PROMPT = `You are a professional translator for a software and content localization service.
The user message has header lines, then one line per segment after "segments:".
- "source:" the source language as "Name (code)". When there is no source line, identify the language yourself.
- "targets:" the target languages, each "Name (code)".
- "format:" the kind of document the segments come from (plain, markdown, html or json; json segments are UI strings and other values in key order).
- "plurals:" (optional) the plural categories of each target.
- Each segment line is its id (a number), one space, then the text written with JSON string escapes (\\n is a line break, \\\\ a backslash). Segments are in reading order; use neighbouring segments as context.
Translate every segment into EACH target language.
Rules:
1. <gN>...</gN> wrap formatted text: keep every pair exactly once and properly nested; you may move a pair to fit the target word order. <xN/> stand for content that must not change: keep each exactly once; you may move it. Never translate, renumber, add or remove these tags.
2. Keep line breaks exactly: never add a line break to a segment that has none. Keep leading and trailing spaces. Add no explanations, notes, quotes or trailing periods that the source does not have.
3. Do not translate code, URLs, e-mail addresses, file names or placeholders such as {name}, {{name}}, %s, %1$s or :name.
4. ICU messages ({n, plural, ...}): keep argument names and "#", translate only the branch text, and use the categories given in "plurals:" for each target.
5. If a segment has nothing to translate, copy it unchanged.
6. Reply with JSON only, without code fences or commentary, in exactly this shape, with every target code and every segment id (ids as strings):
{"translations":[{"lang":"<target code>","segments":[{"id":"<segment id>","text":"<translation>"}]}]}
7. A "fix:" line lists entries your earlier answer got wrong, each with its "problem": answer again with corrected translations for the listed entries only (an entry without "lang" and "id" concerns the whole answer).`;

export interface PromptInput {
  readonly segments: readonly EngineSegment[];
  readonly targets: readonly EngineLanguage[];
  readonly source?: EngineLanguage;
  readonly format: Format;
}

/** One (target, segment) pair the previous answer got wrong, and why. */
export interface FixRequest {
  /** Absent when the problem concerns the whole answer (it was not JSON). */
  readonly lang?: string;
  readonly id?: string;
  readonly problem: string;
  /** What the model returned for it, when it returned anything. */
  readonly previous?: string;
}

const ICU_PLURAL = /\{\s*[\w.]+\s*,\s*(?:plural|selectordinal)\s*,/;

export function languageLabel(language: EngineLanguage): string {
  return `${language.name} (${language.code})`;
}

/** The user message: header lines, then `<id> <escaped text>` per segment. */
export function buildUserMessage(input: PromptInput, fix?: readonly FixRequest[]): string {
  const lines: string[] = [];
  if (input.source) lines.push(`source: ${languageLabel(input.source)}`);
  lines.push(`targets: ${input.targets.map(languageLabel).join(', ')}`);
  lines.push(`format: ${input.format}`);
  if (input.segments.some((segment) => ICU_PLURAL.test(segment.text))) {
    lines.push(`plurals: ${input.targets.map((t) => `${t.code}=${pluralCategories(t.code)}`).join('; ')}`);
  }
  if (fix && fix.length > 0) lines.push(`fix: ${JSON.stringify(fix)}`);
  lines.push('segments:');
  for (const segment of input.segments) lines.push(`${segment.id} ${escapeSegmentText(segment.text)}`);
  return lines.join('\n');
}

/**
 * JSON string escapes for backslashes and control characters, so one segment is always
 * one line. Quotes stay as they are: escaping them would cost a token each.
 */
export function escapeSegmentText(text: string): string {
  return text.replace(/[\\\u0000-\u001f\u2028\u2029]/g, (char) => SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function pluralCategories(code: string): string {
  try {
    return new Intl.PluralRules(code).resolvedOptions().pluralCategories.join(' ');
  } catch {
    return 'one other';
  }
}

/**
 * JSON Schema of the answer, for OpenAI `response_format: json_schema` (strict) and the
 * Anthropic tool's `input_schema`. `lang` is the only enum: hundreds of segment-id enums
 * would bloat every request.
 */
export function answerSchema(targetCodes: readonly string[]): Record<string, unknown> {
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
            segments: {
              type: 'array',
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['id', 'text'],
                properties: { id: { type: 'string' }, text: { type: 'string' } },
              },
            },
          },
        },
      },
    },
  };
}
