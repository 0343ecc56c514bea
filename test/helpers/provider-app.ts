/**
 * The real app with an OpenAI-compatible model behind it: MODEL_STANDARD=openai:fake-model
 * and OPENAI_BASE_URL pointing at a fresh fake provider (fake-provider.ts), rate limits
 * off. The set-up the tests of engines/ and glossaries/ share.
 */
import { after, afterEach, before } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { startTestApp, type TestApp } from './app.js';
import { errorReply, startFakeProvider, type FakeProvider, type ReplyScript } from './fake-provider.js';

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

export interface UseProviderAppOptions {
  /** Added to the app's settings, as for startProviderApp (ENGINE_CONCURRENCY, say). */
  readonly env?: Record<string, string>;
  /**
   * The provider's answer to every call no test scripts, kept between tests; without one,
   * each test starts with unscripted calls answered 500 (resetProvider).
   */
  readonly fallback?: ReplyScript;
}

/** The describe's app, provider and key; read them in hooks and tests, once `before` has run. */
export interface UsedProviderApp extends ProviderApp {
  /** The `authorization` header of a `growth` key. */
  readonly auth: string;
  /** `POST /v1/translate` with that key. */
  translate(payload: object): Promise<LightMyRequestResponse>;
}

/**
 * The set-up the API-level engine tests share, as hooks of the calling `describe`: before
 * its tests, a fake provider and the app with it (startProviderApp) and a `growth` key;
 * after each test, the requests forgotten (and the provider reset, see `fallback`); after
 * all, both closed.
 */
export function useProviderApp(options: UseProviderAppOptions = {}): UsedProviderApp {
  let started: (ProviderApp & { auth: string }) | undefined;
  const ready = (): ProviderApp & { auth: string } => {
    if (!started) throw new Error('useProviderApp: read before its `before` hook ran');
    return started;
  };
  before(async () => {
    const app = await startProviderApp(options.env);
    started = { ...app, auth: (await app.t.key('growth')).auth };
    if (options.fallback) app.provider.fallback(options.fallback);
  });
  afterEach(() => {
    if (!options.fallback) resetProvider(ready().provider);
    else ready().provider.requests.length = 0;
  });
  after(async () => {
    if (started) await stopProviderApp(started);
  });
  return {
    get provider() {
      return ready().provider;
    },
    get t() {
      return ready().t;
    },
    get auth() {
      return ready().auth;
    },
    translate: (payload) => ready().t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: ready().auth }, payload }),
  };
}
