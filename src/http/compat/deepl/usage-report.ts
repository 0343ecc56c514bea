/**
 * GET /deepl/v2/usage in DeepL's unit, characters, from the one monthly token grant that
 * /v1 and both compat APIs share (docs/decisions/0027). Tokens become characters at the
 * rate the free tier's pre-check itself assumes for a one-target request (usage/estimate.ts:
 * ceil(chars / 4) input tokens plus as many output tokens, so 2 characters a token). Both
 * numbers use the same rate, so `character_count >= character_limit` exactly when the
 * grant is spent, which is when translate answers 456 on the free tier.
 */
import type { UsageReport } from '../../../usage/report.js';

export const CHARACTERS_PER_TOKEN = 2;

/** DeepL answers a limit for every account; an unlimited grant gets one no month can reach. */
export const UNLIMITED_CHARACTERS = 1_000_000_000_000;

export function deeplUsage(report: UsageReport): { character_count: number; character_limit: number } {
  return {
    character_count: report.tokensUsed * CHARACTERS_PER_TOKEN,
    character_limit: report.tokensIncluded === null ? UNLIMITED_CHARACTERS : report.tokensIncluded * CHARACTERS_PER_TOKEN,
  };
}
