/**
 * The one place configuration picks an engine for each public model name.
 */
import type { Config } from '../config.js';
import type { TranslationEngine } from './engine.js';
import { AnthropicMessagesClient } from './anthropic.js';
import { createApertiumEngine } from './apertium/create.js';
import { ModelEngine } from './model-engine.js';
import { OpenAIChatClient } from './openai.js';
import type { Tokenizer } from '../tokens.js';
import type { ProviderLimits } from './provider-limit.js';
import { PseudoEngine } from './pseudo.js';

export type PublicModel = 'standard' | 'advanced';

export type EngineRegistry = Readonly<Record<PublicModel, TranslationEngine>>;

/** What engines share in a process: one cap per provider, one tokenizer (made by services.ts). */
export interface EngineParts {
  readonly providerLimits: ProviderLimits;
  readonly tokenizer: Tokenizer;
}

export function createEngine(spec: string, config: Config, parts: EngineParts): TranslationEngine {
  const { providerLimits, tokenizer } = parts;
  const budget = { maxInputTokens: config.maxInputTokensPerCall, maxOutputTokens: config.maxOutputTokensPerCall };
  if (spec === 'pseudo') return new PseudoEngine(budget, tokenizer);
  if (spec === 'apertium') return createApertiumEngine(config, budget, tokenizer);
  const [provider, model] = splitSpec(spec);
  // Model calls are planned for latency: answers of about CALL_OUTPUT_BUDGET_TOKENS, as
  // many at once as the provider's slots (docs/decisions/0012-latency-planned-model-calls.md).
  const limits = {
    budget: {
      maxInputTokens: budget.maxInputTokens,
      maxOutputTokens: budget.maxOutputTokens,
      callOutputTokens: config.callOutputBudgetTokens,
      parallelCalls: config.engineConcurrency,
    },
    timeoutMs: config.engineTimeoutMs,
    concurrency: config.engineConcurrency,
    providerLimits,
  };
  if (provider === 'openai' && model) {
    const client = new OpenAIChatClient({
      model,
      tokenizer,
      responseFormat: config.openai.responseFormat,
      ...(config.openai.apiKey ? { apiKey: config.openai.apiKey } : {}),
      ...(config.openai.baseUrl ? { baseUrl: config.openai.baseUrl } : {}),
    });
    return new ModelEngine({ client, ...limits });
  }
  if (provider === 'anthropic' && model) {
    const client = new AnthropicMessagesClient({
      model,
      ...(config.anthropic.apiKey ? { apiKey: config.anthropic.apiKey } : {}),
      ...(config.anthropic.baseUrl ? { baseUrl: config.anthropic.baseUrl } : {}),
    });
    return new ModelEngine({ client, ...limits });
  }
  throw new Error(`engine ${spec} is not available in this build`);
}

/** `openai:gpt-4o-mini` → [`openai`, `gpt-4o-mini`]; the model may itself contain `:` (`qwen2.5:7b`). */
function splitSpec(spec: string): [string, string] {
  const colon = spec.indexOf(':');
  return colon < 0 ? [spec, ''] : [spec.slice(0, colon), spec.slice(colon + 1)];
}

/** The engines configuration names, sharing the process's parts. */
export function createEngineRegistry(config: Config, parts: EngineParts): EngineRegistry {
  const standard = createEngine(config.models.standard, config, parts);
  const advanced = config.models.advanced === config.models.standard ? standard : createEngine(config.models.advanced, config, parts);
  return { standard, advanced };
}
