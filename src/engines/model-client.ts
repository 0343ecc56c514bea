/**
 * The narrow interface between the engine loop and one provider's wire format. A client
 * makes exactly one HTTP attempt per `complete`: retries, the concurrency cap and the
 * validate/repair loop belong to model-engine.ts, so each provider file only maps a
 * request to its JSON body and its response back.
 */
import type { TokenUsage } from './engine.js';
import type { UserParts } from './prompt.js';

export type ProviderName = 'openai' | 'anthropic';

export interface ModelRequest {
  readonly system: string;
  /**
   * The user message: `prefix` is the same for every call of a request over one chunk
   * (a prompt-cache prefix), `rest` varies. Sent as `prefix`, a line break, `rest`.
   */
  readonly user: UserParts;
  /** JSON Schema of the answer (strict-mode compatible), sent where the provider supports it. */
  readonly schema: Record<string, unknown>;
  readonly maxOutputTokens: number;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

export interface ModelAnswer {
  /** The answer as a value, when the provider delivered it structured (Anthropic tool input). */
  readonly object?: unknown;
  /** The answer as text, parsed tolerantly when `object` is absent. */
  readonly text: string;
  /** The provider's own counts for this call (cached prompt tokens are part of inputTokens). */
  readonly usage: TokenUsage;
  /** The answer stopped at the output-token limit. */
  readonly truncated: boolean;
}

export interface ModelClient {
  readonly provider: ProviderName;
  readonly model: string;
  complete(request: ModelRequest): Promise<ModelAnswer>;
}
