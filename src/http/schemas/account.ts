/** GET /v1/usage, GET /v1/languages and GET /v1/health answers. */
import { Type, type Static } from '@sinclair/typebox';
import { TIERS } from '../../config.js';

const strict = { additionalProperties: false } as const;
const Timestamp = Type.String({ format: 'date-time' });
const TokensOrUnlimited = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'null for enterprise (no grant).' });

export const UsageAnswer = Type.Object(
  {
    period_start: Type.String({ format: 'date-time', description: 'The first millisecond of the calendar month, UTC.' }),
    period_end: Type.String({ format: 'date-time', description: 'The last millisecond of the calendar month, UTC.' }),
    tokens_used: Type.Integer({ minimum: 0 }),
    tokens_included: TokensOrUnlimited,
    tokens_remaining: TokensOrUnlimited,
    overage_tokens: Type.Integer({ minimum: 0 }),
    tier: Type.Union(TIERS.map((t) => Type.Literal(t))),
  },
  strict,
);

export const LanguagesAnswer = Type.Object(
  {
    languages: Type.Array(
      Type.Object({ code: Type.String(), name: Type.String({ description: 'English display name.' }), rtl: Type.Boolean({ description: 'Written right to left.' }) }, strict),
    ),
  },
  strict,
);

export const HealthAnswer = Type.Object({ status: Type.Literal('ok'), timestamp: Timestamp }, strict);

export type UsageAnswer = Static<typeof UsageAnswer>;
export type LanguagesAnswer = Static<typeof LanguagesAnswer>;
export type HealthAnswer = Static<typeof HealthAnswer>;
