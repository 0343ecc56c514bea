/**
 * The real app with an OpenAI-compatible model behind it: MODEL_STANDARD=openai:fake-model
 * and OPENAI_BASE_URL pointing at a fresh fake provider (fake-provider.ts), rate limits
 * off. The set-up the tests of engines/ and glossaries/ share.
 */
import { startTestApp, type TestApp } from './app.js';
import { errorReply, startFakeProvider, type FakeProvider } from './fake-provider.js';

export interface ProviderApp {
  readonly provider: FakeProvider;
  readonly t: TestApp;
}

/** `env` adds to the app's settings (MAX_INPUT_TOKENS_PER_CALL, say) or replaces them. */
export async function startProviderApp(env: Record<string, string> = {}): Promise<ProviderApp> {
  const provider = await startFakeProvider();
  const t = await startTestApp({ env: Object.assign({ RATE_LIMIT_STORE: 'none', MODEL_STANDARD: 'openai:fake-model', OPENAI_BASE_URL: provider.baseUrl }, env) });
  return { provider, t };
}

export async function stopProviderApp({ provider, t }: ProviderApp): Promise<void> {
  await t.close();
  await provider.close();
}

/** Between tests: the requests forgotten, and anything a test did not script answered 500. */
export function resetProvider(provider: FakeProvider): void {
  provider.requests.length = 0;
  provider.fallback(() => errorReply(500));
}
