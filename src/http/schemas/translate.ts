/**
 * What POST /v1/translate and /v1/translate/batch take and answer, for the OpenAPI
 * document and the route types. The bodies are described here but checked in code
 * (translate-body.ts, docs/decisions/0001): the document states the same limits.
 */
import { Type, type Static } from '@sinclair/typebox';
import { FORMATS } from '../../formats/format.js';
import { FORMALITY_VALUES, MAX_CONTEXT_CHARS } from '../../translation/instructions.js';
import { MAX_BATCH_ITEMS, MAX_TARGETS } from './translate-body.js';

const strict = { additionalProperties: false } as const;

export const Content = Type.String({ minLength: 1, description: 'The document: plain text, markdown, JSON or HTML, up to the 2 MiB body limit.' });
export const FormatName = Type.Union(FORMATS.map((f) => Type.Literal(f)), { description: 'Omit it to let the service detect the format.' });
export const Targets = Type.Array(Type.String({ description: 'A code from GET /v1/languages, matched case-insensitively.' }), {
  minItems: 1,
  maxItems: MAX_TARGETS,
  uniqueItems: true,
  description: `1 to ${MAX_TARGETS} distinct language codes (case-insensitively distinct).`,
});
export const Source = Type.String({ description: 'The source language, a code from GET /v1/languages; detected by the model when omitted.' });
export const ModelName = Type.Union([Type.Literal('standard'), Type.Literal('advanced')], { description: '`advanced` needs a paid tier; default `standard`.' });
export const UseMemory = Type.Boolean({ description: 'Reuse and store translations in your translation memory (docs/memory.md); default true. false neither reads nor writes memory: every segment goes to the model.' });
export const GlossaryId = Type.String({
  description: 'A glossary of yours (POST /v1/glossaries) whose terms the translation must use; 404 not_found when it is unknown or another user\'s, 400 when its source differs from `source`.',
});

export const Formality = Type.Union(FORMALITY_VALUES.map((v) => Type.Literal(v)), {
  description:
    'How to address the reader: `more` formal, `less` informal (refused when a target has no formal address; see docs/compatibility.md), `prefer_more`/`prefer_less` where the target has it, `default` the model\'s choice. Part of the translation-memory key.',
});
export const Context = Type.String({
  maxLength: MAX_CONTEXT_CHARS,
  description: 'Text that explains the content (where it appears, what it refers to): it guides the translation, is never translated, and is sent with every model call. Part of the translation-memory key.',
});

export const TranslateBody = Type.Object({
  content: Content,
  targets: Targets,
  source: Type.Optional(Source),
  format: Type.Optional(FormatName),
  model: Type.Optional(ModelName),
  memory: Type.Optional(UseMemory),
  glossary_id: Type.Optional(GlossaryId),
  formality: Type.Optional(Formality),
  context: Type.Optional(Context),
});

export const BatchBody = Type.Object({
  items: Type.Array(Type.Object({ id: Type.String({ minLength: 1, description: 'Unique within the request.' }), content: Content, format: Type.Optional(FormatName) }), {
    minItems: 1,
    maxItems: MAX_BATCH_ITEMS,
  }),
  targets: Targets,
  source: Type.Optional(Source),
  model: Type.Optional(ModelName),
  memory: Type.Optional(UseMemory),
  glossary_id: Type.Optional(GlossaryId),
  formality: Type.Optional(Formality),
  context: Type.Optional(Context),
});

/** Translated documents by target code, spelled as the request spelled it. */
export const Translations = Type.Record(Type.String(), Type.String());

const TokenCounts = {
  input_tokens: Type.Integer({ minimum: 0 }),
  output_tokens: Type.Integer({ minimum: 0 }),
  total_tokens: Type.Integer({ minimum: 0, description: 'What this request charged to the month.' }),
};

/** What translation memory and a glossary add to every usage answer (docs/memory.md, docs/glossaries.md). */
export const MemoryCounts = {
  cached_segments: Type.Integer({ minimum: 0, description: 'Segment × target pairs served from translation memory: no model call, no tokens.' }),
  glossary_misses: Type.Optional(
    Type.Integer({ minimum: 0, description: 'Only with glossary_id: required glossary terms still missing after the repair round.' }),
  ),
};

export const TranslateAnswer = Type.Object(
  {
    translations: Translations,
    usage: Type.Object(
      {
        ...TokenCounts,
        model: ModelName,
        ...MemoryCounts,
        detected_format: Type.Optional(Type.Union(FORMATS.map((f) => Type.Literal(f)), { description: 'Only when the request had no format.' })),
        detection_confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
        detected_source: Type.Optional(Type.String({ description: 'The source language detected when the request had no source (docs/detection.md).' })),
        source_confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
      },
      strict,
    ),
  },
  strict,
);

/** The data of a streamed answer's `translation` event: one target's whole document. */
export const TranslationEventData = Type.Object(
  {
    target: Type.String({ description: 'The target code as the request spelled it.' }),
    text: Type.String({ description: 'The whole translated document in that target.' }),
  },
  strict,
);

/** The usage event's data is the JSON answer's `usage`. */
export const UsageEventData = TranslateAnswer.properties.usage;

/** POST /v1/translate with Accept: text/event-stream (docs/streaming.md). */
export const TranslateEvents = Type.String({
  description: [
    'Server-Sent Events, each `event: <name>` then `data: <one line of JSON>`:',
    '`translation` `{target, text}` once per target, as soon as that target\'s document is complete (targets arrive in the order they finish);',
    'then `usage` (the `usage` object of the JSON answer); then `done` `{}`.',
    'A failure after the stream started is one `error` event `{error, message}` (the codes of this route\'s error answers) instead of `usage` and `done`, and nothing is charged.',
    'Refusals before the work starts (bad body, tier, token pre-check, rate limit) are the usual JSON error answers.',
  ].join(' '),
});

export const BatchAnswer = Type.Object(
  {
    results: Type.Array(Type.Object({ id: Type.String(), translations: Translations }, strict), { description: 'In request order.' }),
    usage: Type.Object({ ...TokenCounts, model: ModelName, ...MemoryCounts }, strict),
  },
  strict,
);

/** POST /v1/translate/estimate (docs/decisions/0019): what /translate would cost now; nothing is charged. */
export const EstimateAnswer = Type.Object(
  {
    input_tokens: Type.Integer({ minimum: 0, description: 'Expected input tokens of the model calls translation memory does not spare.' }),
    output_tokens: Type.Integer({ minimum: 0, description: 'Expected output tokens (the planner\'s expectation; repairs are not predicted).' }),
    total_tokens: Type.Integer({ minimum: 0 }),
    cached_segments: Type.Integer({ minimum: 0, description: 'Segment × target pairs translation memory holds now: no model call, no tokens.' }),
    model_calls: Type.Integer({ minimum: 0, description: 'Model calls the request would make now.' }),
    precheck: Type.Object(
      {
        passes: Type.Boolean({ description: 'Whether the free tier\'s token pre-check would let the request through now; paid tiers always pass.' }),
        tokens_remaining: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
          description: 'The month\'s grant left after usage and live reservations; null for enterprise.',
        }),
      },
      strict,
    ),
  },
  strict,
);

export type TranslateAnswer = Static<typeof TranslateAnswer>;
export type BatchAnswer = Static<typeof BatchAnswer>;
export type EstimateAnswer = Static<typeof EstimateAnswer>;
