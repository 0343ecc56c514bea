/**
 * The engine contract: segments and targets in; a translation of every segment for
 * every target, and the tokens spent, out. One call to `translate` covers one chunk
 * for all its targets. Engines know nothing of formats' syntax, HTTP or storage.
 */
import type { Format } from '../segments/format-name.js';

export interface EngineSegment {
  readonly id: string;
  /** Masked text; tokens (`<g1>`, `</g1>`, `<x1/>`) must come back intact. */
  readonly text: string;
  readonly ctx?: string;
  readonly singleLine?: boolean;
  /**
   * The plural branches added to `text` for the call's targets (docs/formats.md,
   * "Plurals"): each such `<gN>` pair, with its category (`few`) and whether the message
   * counts (`cardinal`) or orders (`ordinal`). Its text is a copy of the source's `other`;
   * the model words it for its category's numbers. The source's own branches are not
   * listed: their text says what they are.
   */
  readonly pluralBranches?: readonly PluralBranchNote[];
  /** What the file says about this entry for translators (segments/segment.ts); context, never translated. */
  readonly note?: string;
}

export interface PluralBranchNote {
  readonly pair: number;
  readonly selector: string;
  readonly type: 'cardinal' | 'ordinal';
}

export interface EngineLanguage {
  /** Canonical code from languages.ts, e.g. `pt-BR`. */
  readonly code: string;
  /** English display name, e.g. `Portuguese (Brazil)`. */
  readonly name: string;
  readonly rtl: boolean;
}

export interface TranslateChunkInput {
  readonly segments: readonly EngineSegment[];
  readonly targets: readonly EngineLanguage[];
  /** Absent: the engine identifies the source language itself. */
  readonly source?: EngineLanguage;
  readonly format: Format;
  /** Aborted when the client goes away or the job is released; engines stop their calls. */
  readonly signal?: AbortSignal;
  /**
   * Every target of the request this chunk belongs to (a superset of `targets`). Calls
   * of one request describe the answer with this same list, so their prompts share a
   * prefix that providers cache. Default: `targets`.
   */
  readonly requestTargets?: readonly EngineLanguage[];
  /**
   * Who the call is made for (one object per request, batch or job). Model-call slots
   * go round-robin between callers waiting for one (provider-limit.ts); calls without
   * a caller each count as their own.
   */
  readonly caller?: object;
  /**
   * Glossary entries whose term occurs in this call's segments: each target's answer
   * must use the entry's translation for that target. Absent or empty: no glossary.
   */
  readonly glossary?: readonly GlossaryTerm[];
  /** The register to address the reader in, where the target language has one; absent: the model's choice. */
  readonly formality?: Formality;
  /**
   * Text that helps understand the segments (where they appear, what they refer to): it
   * shapes the translation but is never translated itself. Absent: none.
   */
  readonly context?: string;
}

/** Formal or informal address (Sie/du, vous/tu, usted/tú; keigo in Japanese). */
export type Formality = 'formal' | 'informal';

/** A required translation: `term` (source text, matched ignoring case) → per target code, the words to use. */
export interface GlossaryTerm {
  readonly term: string;
  /** Canonical target code → required translation; a target without one is free. */
  readonly translations: Readonly<Record<string, string>>;
}

export interface TokenUsage {
  /** Every prompt token sent, cached ones included: what the user is charged. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Of `inputTokens`, those the provider read from its prompt cache (reported, not charged apart). */
  readonly cachedInputTokens?: number;
  /** Of `inputTokens`, those the provider wrote to its prompt cache (Anthropic reports them). */
  readonly cacheWriteTokens?: number;
}

export interface ChunkTranslation {
  /** target code → segment id → translated masked text; complete and validated. */
  readonly translations: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Summed over every model call the chunk needed (repairs and retries included). */
  readonly usage: TokenUsage;
  /** Model calls that returned an answer (repairs included); absent for engines without calls. */
  readonly calls?: number;
  /** Segment × target pairs whose answer still lacks a required glossary term after the repair round. */
  readonly glossaryMisses?: number;
}

/** Per-call limits the call planner (translation/plan.ts) must respect. */
export interface CallBudget {
  /** Source tokens (o200k estimate) one call may carry. */
  readonly maxInputTokens: number;
  /** Output tokens one call may produce (all targets together): the provider's hard limit. */
  readonly maxOutputTokens: number;
  /**
   * Output tokens one call is planned to write, sized for the time a user waits
   * (config CALL_OUTPUT_BUDGET_TOKENS). Default: `maxOutputTokens`.
   */
  readonly callOutputTokens?: number;
  /** Calls that may run at once (the provider's concurrency); the planner fans out to fill them. Default 1. */
  readonly parallelCalls?: number;
}

export interface TranslationEngine {
  /** `pseudo`, `openai:gpt-4o-mini`, `anthropic:claude-sonnet-4-5`, `apertium`. */
  readonly id: string;
  readonly budget: CallBudget;
  /**
   * The directions the engine translates, for an engine that cannot translate between
   * every pair of languages (Apertium's installed pairs). Absent: every pair.
   */
  readonly directions?: LanguageDirections;
  translate(input: TranslateChunkInput): Promise<ChunkTranslation>;
  /** Stops what the engine keeps running (Apertium's pipelines); absent when it keeps nothing. */
  close?(): void;
}

/** The language directions of an engine that has some and not others. */
export interface LanguageDirections {
  /** Whether text in `source` (a canonical code) can be translated into `target`. */
  supports(source: string, target: string): boolean;
  /** Every source with the targets it can be translated into (canonical codes, in our language order). */
  list(): ReadonlyMap<string, readonly string[]>;
}

/**
 * A failure of the engine. `message` is shown to users (a failed job's `error`), so it
 * says what went wrong in plain words with no provider internals. `retryable` failures
 * (timeouts, 429/5xx, invalid answers) may succeed when the job runs again.
 */
export class EngineError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'EngineError';
  }
}
