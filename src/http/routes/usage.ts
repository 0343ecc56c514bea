import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { usageReportFor } from '../../usage/service.js';
import { userOf } from '../plugins/auth.js';
import { UsageAnswer } from '../schemas/account.js';
import { authenticatedRoute } from '../schemas/route.js';
import type { ProtectedHooks } from '../protected-hooks.js';

const schema = authenticatedRoute({
  tag: 'account',
  summary: 'This month\'s usage against your tier\'s grant',
  description: 'Does not spend the rate limit. Months are calendar months in UTC.',
  answers: { 200: UsageAnswer },
  errors: [],
});

export function usageRoutes(deps: AppDeps, hooks: ProtectedHooks) {
  return async (app: FastifyInstance): Promise<void> => {
    app.withTypeProvider<TypeBoxTypeProvider>().get('/usage', { schema, onRequest: hooks.authenticated }, async (request) => {
      const report = await usageReportFor(deps, userOf(request));
      return {
        period_start: report.periodStart.toISOString(),
        period_end: report.periodEnd.toISOString(),
        tokens_used: report.tokensUsed,
        tokens_included: report.tokensIncluded,
        tokens_remaining: report.tokensRemaining,
        overage_tokens: report.overageTokens,
        tier: report.tier,
      };
    });
  };
}
