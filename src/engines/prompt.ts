/**
 * The prompt every model engine sends: one fixed, versioned system block (identical for
 * every call, so provider-side prompt caching can reuse it) and a compact JSON user
 * message that carries only what varies: languages, format and the segments.
 *
 * Segments go as an `id → text` object, not as `[{id, text}]`: the per-segment envelope
 * is then about three tokens instead of nine, which is what keeps the request within 15%
 * of the text's own tokens (docs/benchmarks.md, "Prompt tokens").
 *
 * The answer is grouped by target (ENGINE-NOTES b4): a truncated reply still holds the
 * targets completed before the cut. No open maps in the schema, so OpenAI strict mode
 * accepts it; segment ids are checked in code, not by enums.
 */
import type { EngineLanguage, EngineSegment } from './engine.js';
import type { Format } from '../formats/format.js';

/** Part of any cache key built over model output: change it whenever the wording changes. */
export const PROMPT_VERSION = 'mt-2026-01-v1';

/** The one tool (Anthropic) / schema name the answer is delivered through. */
export const ANSWER_NAME = 'submit_translations';

export const SYSTEM_PROMPT = `You are a professional translator for a software and content localization service.
The user message is JSON. "source": the source language as "Name (code)"; when it is absent, identify the language yourself. "targets": the target languages, each "Name (code)". "format": the kind of document the segments come from. "segments": segment id -> text, in reading order; use neighbouring segments as context. "ctx" (optional): segment id -> a hint such as a heading level or a JSON key path. "plurals" (optional): target code -> its plural categories.
Translate every segment into EACH target language.
Rules:
1. <gN>...</gN> wrap formatted text: keep every pair exactly once and properly nested; you may move a pair to fit the target word order. <xN/> stand for content that must not change: keep each exactly once; you may move it. Never translate, renumber, add or remove these tags.
2. Keep line breaks exactly: never add a line break to a segment that has none. Keep leading and trailing spaces. Add no explanations, notes, quotes or trailing periods that the source does not have.
3. Do not translate code, URLs, e-mail addresses, file names or placeholders such as {name}, {{name}}, %s, %1$s or :name.
4. ICU messages ({n, plural, ...}): keep argument names and "#", translate only the branch text, and use the categories listed in "plurals" for each target.
5. If a segment has nothing to translate, copy it unchanged.
6. Reply with JSON only, without code fences or commentary, in exactly this shape, with every target code and every segment id:
{"translations":[{"lang":"<target code>","segments":[{"id":"<segment id>","text":"<translation>"}]}]}
7. When the message has "fix", your earlier answer to these segments was wrong as each "problem" says: answer again with corrected translations for the entries listed (an entry without "lang" and "id" concerns the whole answer).`;

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

/** The user message: compact JSON, keys only when they carry something. */
export function buildUserMessage(input: PromptInput, fix?: readonly FixRequest[]): string {
  const segments: Record<string, string> = {};
  const ctx: Record<string, string> = {};
  for (const segment of input.segments) {
    segments[segment.id] = segment.text;
    if (segment.ctx) ctx[segment.id] = segment.ctx;
  }
  const message: Record<string, unknown> = {};
  if (input.source) message.source = languageLabel(input.source);
  message.targets = input.targets.map(languageLabel);
  message.format = input.format;
  message.segments = segments;
  if (Object.keys(ctx).length > 0) message.ctx = ctx;
  if (input.segments.some((segment) => ICU_PLURAL.test(segment.text))) {
    message.plurals = Object.fromEntries(input.targets.map((t) => [t.code, pluralCategories(t.code)]));
  }
  if (fix && fix.length > 0) message.fix = fix;
  return JSON.stringify(message);
}

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
