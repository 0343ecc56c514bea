/**
 * Shared set-up for the engine tests: languages, an engine per provider pointed at the
 * fake server, and a retry policy whose sleeps are recorded instead of waited for.
 */
import type { CallBudget, EngineLanguage, EngineSegment, TranslateChunkInput } from '../../src/engines/engine.js';
import { AnthropicMessagesClient } from '../../src/engines/anthropic.js';
import { ModelEngine } from '../../src/engines/model-engine.js';
import { OpenAIChatClient } from '../../src/engines/openai.js';
import { testTokenizer } from '../helpers/tokenizer.js';
import type { RetryPolicy } from '../../src/engines/retry.js';
import type { OpenAIResponseFormat } from '../../src/config.js';
import type { FakeProvider } from '../helpers/fake-provider.js';

export const EN: EngineLanguage = { code: 'en', name: 'English', rtl: false };
export const DE: EngineLanguage = { code: 'de', name: 'German', rtl: false };
export const FR: EngineLanguage = { code: 'fr', name: 'French', rtl: false };
export const AR: EngineLanguage = { code: 'ar', name: 'Arabic', rtl: true };

export const MAX_OUTPUT_TOKENS = 4000;

export interface EngineUnderTest {
  readonly engine: ModelEngine;
  /** Every backoff delay the engine asked for, in ms. */
  readonly sleeps: number[];
}

export interface EngineOptions {
  readonly timeoutMs?: number;
  readonly concurrency?: number;
  readonly responseFormat?: OpenAIResponseFormat;
  readonly retry?: Partial<RetryPolicy>;
  /** The planner's budget beyond the fixed limits (callOutputTokens, parallelCalls). */
  readonly budget?: Partial<CallBudget>;
}

function engineFor(client: OpenAIChatClient | AnthropicMessagesClient, options: EngineOptions): EngineUnderTest {
  const sleeps: number[] = [];
  const engine = new ModelEngine({
    client,
    budget: { maxInputTokens: 6000, maxOutputTokens: MAX_OUTPUT_TOKENS, ...options.budget },
    timeoutMs: options.timeoutMs ?? 5000,
    concurrency: options.concurrency ?? 8,
    retry: {
      random: () => 0.5,
      sleep: async (ms, signal) => {
        signal?.throwIfAborted();
        sleeps.push(ms);
      },
      ...options.retry,
    },
  });
  return { engine, sleeps };
}

export function openaiEngine(provider: FakeProvider, options: EngineOptions = {}): EngineUnderTest {
  const client = new OpenAIChatClient({
    model: 'gpt-test',
    tokenizer: testTokenizer,
    apiKey: 'sk-test',
    baseUrl: provider.baseUrl,
    ...(options.responseFormat ? { responseFormat: options.responseFormat } : {}),
  });
  return engineFor(client, options);
}

export function anthropicEngine(provider: FakeProvider, options: EngineOptions & { baseUrl?: string } = {}): EngineUnderTest {
  const client = new AnthropicMessagesClient({
    model: 'claude-test',
    apiKey: 'ak-test',
    baseUrl: options.baseUrl ?? provider.baseUrl,
  });
  return engineFor(client, options);
}

export function chunk(
  segments: readonly EngineSegment[],
  targets: readonly EngineLanguage[],
  extra: Partial<TranslateChunkInput> = {},
): TranslateChunkInput {
  return { segments, targets, source: EN, format: 'markdown', ...extra };
}

/** Map of maps → plain object, for deepEqual. */
export function plain(translations: ReadonlyMap<string, ReadonlyMap<string, string>>): Record<string, Record<string, string>> {
  return Object.fromEntries([...translations].map(([lang, byId]) => [lang, Object.fromEntries(byId)]));
}
