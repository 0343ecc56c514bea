/**
 * What /v1/glossaries takes and answers, for the OpenAPI document and the client. The body
 * is described here but checked in code (src/glossaries/validate.ts, docs/decisions/0001),
 * so the limits stated here are GLOSSARY_LIMITS, the ones the code applies.
 */
import { Type, type Static } from '@sinclair/typebox';
import { GLOSSARY_LIMITS } from '../../glossaries/glossary.js';

const strict = { additionalProperties: false } as const;
const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601, UTC, milliseconds.' });
const Term = Type.String({
  minLength: 1,
  maxLength: GLOSSARY_LIMITS.termChars,
  description: 'No leading or trailing white space, line breaks, control characters or tag-like text (<x1/>, <g1>).',
});
const LanguageCode = Type.String({ description: 'A code from GET /v1/languages; stored canonical (pt-br → pt-BR).' });

const Entry = Type.Object(
  {
    term: Term,
    translations: Type.Record(Type.String(), Term, { description: 'Target code → the required translation of the term; at least one.' }),
  },
  strict,
);

export const GlossaryBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: GLOSSARY_LIMITS.nameChars }),
  source: LanguageCode,
  entries: Type.Optional(
    Type.Array(Entry, { maxItems: GLOSSARY_LIMITS.entries, description: 'Terms match as whole words, ignoring case; two entries differing only in case are refused.' }),
  ),
  do_not_translate: Type.Optional(
    Type.Array(Term, { maxItems: GLOSSARY_LIMITS.doNotTranslate, description: 'Kept exactly as written (case included); duplicates are stored once.' }),
  ),
}, { description: `At least one entry or do_not_translate term. A user holds at most ${GLOSSARY_LIMITS.perUser} glossaries.` });

export const GlossaryParams = Type.Object({ id: Type.String({ description: 'The glossary_id POST /v1/glossaries answered.' }) });

const summaryFields = {
  glossary_id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  source: LanguageCode,
  entry_count: Type.Integer({ minimum: 0 }),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const GlossarySummary = Type.Object(summaryFields, strict);

export const GlossaryList = Type.Object({ glossaries: Type.Array(GlossarySummary, { description: 'Newest first.' }) }, strict);

export const GlossaryDetail = Type.Object(
  {
    ...summaryFields,
    version: Type.Integer({ minimum: 1, description: '1 on creation, +1 on every PUT; translations made under an older version are not reused.' }),
    entries: Type.Array(Entry),
    do_not_translate: Type.Array(Type.String()),
  },
  strict,
);

export type GlossarySummary = Static<typeof GlossarySummary>;
export type GlossaryList = Static<typeof GlossaryList>;
export type GlossaryDetail = Static<typeof GlossaryDetail>;
