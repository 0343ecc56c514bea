/**
 * The engine behind `openai:<model>` and `anthropic:<model>`: one model call per chunk
 * for all targets, every answer checked, bad answers repaired once, then the call made
 * once more, then a plain-worded EngineError.
 *
 *   call ──▶ check ──ok──▶ done
 *              │ problems
 *              ▼
 *   repair (only the pending lines and targets, with a fix: line) ──▶ check ──ok──▶ done
 *              │ still failing
 *              ▼
 *   call again (only the pending lines and targets) ──▶ check ──ok──▶ done
 *              │ still failing
 *              ▼
 *   EngineError(retryable) — a job may run again; the sync API answers translation_error
 *
 * Good pairs are kept from every round, so a later round only asks for what is left. A
 * call is rectangular: it carries every segment still pending for some target, for
 * every target still pending for some segment, as unnumbered lines (prompt.ts); pairs
 * that come back for combinations already accepted are ignored. The repair's fix
 * entries point at lines by their position in the repair message itself.
 * Glossary terms: an answer that passes every check but lacks a required glossary
 * translation gets one more repair round for those pairs only (glossary-check.ts);
 * what still lacks it is accepted and counted in `glossaryMisses`, since inflection may
 * rightly change the word.
 * Each model call is itself retried on transport faults (retry.ts) and runs under the
 * provider's shared concurrency cap (provider-limit.ts), which serves the chunk's
 * `caller` in turn with the other callers. The answer schema lists every target of the
 * request (`requestTargets`), so the calls of one request share a cacheable prefix.
 * Usage is the provider's own count, summed over every call that returned one.
 */
import {
  EngineError,
  type CallBudget,
  type ChunkTranslation,
  type EngineLanguage,
  type EngineSegment,
  type TranslateChunkInput,
  type TokenUsage,
  type TranslationEngine,
} from './engine.js';
import type { ModelAnswer, ModelClient } from './model-client.js';
import { parseAnswerText } from './parse-answer.js';
import { SYSTEM_PROMPT, answerSchema, buildUserParts, type FixRequest } from './prompt.js';
import { ProviderCallError } from './provider-http.js';
import { ProviderLimits, runLimited } from './provider-limit.js';
import { DEFAULT_RETRY_POLICY, withRetry, type RetryPolicy } from './retry.js';
import { checkAnswer, isRecord, type AnswerProblem, type ProblemKind } from './validate.js';
import { glossaryMisses, termsIn, type GlossaryMiss } from './glossary-check.js';

export interface ModelEngineOptions {
  readonly client: ModelClient;
  readonly budget: CallBudget;
  /** One HTTP attempt's limit (config.engineTimeoutMs). */
  readonly timeoutMs: number;
  /** Calls in flight per provider in this process (config.engineConcurrency). */
  readonly concurrency: number;
  /** The process's caps, shared with its other engines; default: caps of this engine's own. */
  readonly providerLimits?: ProviderLimits;
  /** Tests inject a clock and a random source here. */
  readonly retry?: Partial<RetryPolicy>;
}

type Round = 'call' | 'repair';
/** Usage summed over a chunk's calls, and how many calls there were. */
type CallTally = { -readonly [K in keyof TokenUsage]-?: number } & { calls: number };

/** The tally as TokenUsage: the cache counts only when the provider reported any. */
function usageOf(tally: CallTally): TokenUsage {
  return {
    inputTokens: tally.inputTokens,
    outputTokens: tally.outputTokens,
    ...(tally.cachedInputTokens > 0 ? { cachedInputTokens: tally.cachedInputTokens } : {}),
    ...(tally.cacheWriteTokens > 0 ? { cacheWriteTokens: tally.cacheWriteTokens } : {}),
  };
}
const ROUNDS: readonly Round[] = ['call', 'repair', 'call'];

export class ModelEngine implements TranslationEngine {
  readonly id: string;
  readonly budget: CallBudget;
  private readonly client: ModelClient;
  private readonly retry: RetryPolicy;
  readonly #providerLimits: ProviderLimits;

  constructor(private readonly options: ModelEngineOptions) {
    this.client = options.client;
    this.#providerLimits = options.providerLimits ?? new ProviderLimits();
    this.id = `${options.client.provider}:${options.client.model}`;
    this.budget = options.budget;
    this.retry = Object.assign({}, DEFAULT_RETRY_POLICY, options.retry);
  }

  async translate(chunk: TranslateChunkInput): Promise<ChunkTranslation> {
    chunk.signal?.throwIfAborted();
    // Inside the loop a segment is known by its position in the chunk, so ids are unique.
    // Object.assign, not a spread followed by `id` (decision 0043: that makes a new map per segment).
    const segments: EngineSegment[] = chunk.segments.map((segment, index) => Object.assign({}, segment, { id: String(index + 1) }));
    const usage: CallTally = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, calls: 0 };
    const done = new Map<string, Map<string, string>>(chunk.targets.map((t) => [t.code, new Map()]));
    const isPending = (lang: string, id: string): boolean => !done.get(lang)!.has(id);
    let problems: AnswerProblem[] = [];

    for (const round of ROUNDS) {
      const targets = chunk.targets.filter((target) => segments.some((segment) => isPending(target.code, segment.id)));
      if (targets.length === 0) break;
      const lines = segments.filter((segment) => targets.some((target) => isPending(target.code, segment.id)));
      const fix = round === 'repair' ? fixRequests(problems, lines) : undefined;
      const answer = await this.call(chunk, lines, targets, usage, fix);
      const answerValue = isRecord(answer.object) ? answer.object : parseAnswerText(answer.text);
      const codes = targets.map((target) => target.code);
      const check = checkAnswer(answerValue, lines, codes, answer.truncated);
      for (const [lang, byId] of check.accepted) {
        for (const [id, text] of byId) if (isPending(lang, id)) done.get(lang)!.set(id, text);
      }
      // Problems of pairs accepted in an earlier round are not problems any more.
      problems = check.problems.filter(
        (problem) => problem.lang === undefined || problem.id === undefined || isPending(problem.lang, problem.id),
      );
    }

    if (chunk.targets.every((target) => segments.every((segment) => !isPending(target.code, segment.id)))) {
      const misses = chunk.glossary?.length ? await this.repairGlossary(chunk, segments, done, usage) : 0;
      const translations = new Map(
        chunk.targets.map((target) => [
          target.code,
          new Map(chunk.segments.map((segment, index) => [segment.id, done.get(target.code)!.get(String(index + 1))!])),
        ]),
      );
      return { translations, usage: usageOf(usage), calls: usage.calls, ...(misses > 0 ? { glossaryMisses: misses } : {}) };
    }
    throw new EngineError(answerFailureMessage(problems), true);
  }

  /**
   * One repair call for the pairs whose answer lacks a required glossary translation;
   * a repaired answer that passes every check replaces the first. Returns the pairs
   * still lacking one.
   */
  private async repairGlossary(
    chunk: TranslateChunkInput,
    segments: readonly EngineSegment[],
    done: Map<string, Map<string, string>>,
    usage: CallTally,
  ): Promise<number> {
    const glossary = chunk.glossary ?? [];
    const misses = glossaryMisses(segments, chunk.targets, glossary, done);
    if (misses.length === 0) return 0;
    const missed = (lang: string, id: string): boolean => misses.some((miss) => miss.lang === lang && miss.id === id);
    const targets = chunk.targets.filter((target) => misses.some((miss) => miss.lang === target.code));
    const lines = segments.filter((segment) => misses.some((miss) => miss.id === segment.id));
    let answer: ModelAnswer;
    try {
      answer = await this.call(chunk, lines, targets, usage, glossaryFixes(misses, lines, done));
    } catch (error) {
      // The answers are valid already: a failed repair keeps them rather than failing the chunk.
      if (chunk.signal?.aborted) throw error;
      return misses.length;
    }
    const answerValue = isRecord(answer.object) ? answer.object : parseAnswerText(answer.text);
    const check = checkAnswer(answerValue, lines, targets.map((target) => target.code), answer.truncated);
    for (const [lang, byId] of check.accepted) {
      for (const [id, text] of byId) if (missed(lang, id)) done.get(lang)!.set(id, text);
    }
    return glossaryMisses(segments, chunk.targets, glossary, done).length;
  }

  /** One model call (with transport retries) for `segments` × `targets`; adds its usage. */
  private async call(
    chunk: TranslateChunkInput,
    segments: readonly EngineSegment[],
    targets: readonly EngineLanguage[],
    usage: CallTally,
    fix?: readonly FixRequest[],
  ): Promise<ModelAnswer> {
    const glossary = chunk.glossary?.length ? termsIn(segments, chunk.glossary) : [];
    const user = buildUserParts(
      {
        segments,
        targets,
        format: chunk.format,
        ...(chunk.source ? { source: chunk.source } : {}),
        ...(glossary.length > 0 ? { glossary } : {}),
        ...(chunk.formality ? { formality: chunk.formality } : {}),
        ...(chunk.context ? { context: chunk.context } : {}),
      },
      fix,
    );
    const schema = answerSchema((chunk.requestTargets ?? chunk.targets).map((target) => target.code));
    const signal = chunk.signal;
    const limit = this.#providerLimits.of(this.client.provider, this.options.concurrency);
    try {
      const answer = await withRetry(
        () =>
          runLimited(
            limit,
            () =>
              this.client.complete({
                system: SYSTEM_PROMPT,
                user,
                schema,
                maxOutputTokens: this.budget.maxOutputTokens,
                timeoutMs: this.options.timeoutMs,
                ...(signal ? { signal } : {}),
              }),
            signal,
            chunk.caller,
          ),
        this.retry,
        signal,
      );
      usage.inputTokens += answer.usage.inputTokens;
      usage.outputTokens += answer.usage.outputTokens;
      usage.cachedInputTokens += answer.usage.cachedInputTokens ?? 0;
      usage.cacheWriteTokens += answer.usage.cacheWriteTokens ?? 0;
      usage.calls++;
      return answer;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw transportFailure(error);
    }
  }
}

/**
 * What the repair call is told about the previous answer's problems, each pointing at a
 * line of the repair message (`lines`, in order): one entry per failing pair, one per
 * target that failed as a whole, or a single entry for an unreadable answer.
 */
function fixRequests(problems: readonly AnswerProblem[], lines: readonly EngineSegment[]): FixRequest[] {
  const invalid = problems.find((problem) => problem.lang === undefined);
  if (invalid) return [{ problem: invalid.problem }];
  const lineOf = new Map(lines.map((segment, index) => [segment.id, index + 1]));
  return problems.map(({ lang, id, problem, previous }) => {
    const line = id === undefined ? undefined : lineOf.get(id);
    return {
      lang,
      ...(line !== undefined ? { line } : {}),
      problem,
      ...(previous !== undefined ? { previous } : {}),
    };
  });
}

/** The repair's fix list for glossary misses: one entry per pair, naming the terms and their required translations. */
function glossaryFixes(misses: readonly GlossaryMiss[], lines: readonly EngineSegment[], done: Map<string, Map<string, string>>): FixRequest[] {
  const lineOf = new Map(lines.map((segment, index) => [segment.id, index + 1]));
  return misses.map((miss) => ({
    lang: miss.lang,
    line: lineOf.get(miss.id)!,
    problem: `use the glossary: ${miss.terms.map((term) => `"${term.term}" → "${term.required}"`).join(', ')}`,
    previous: done.get(miss.lang)!.get(miss.id)!,
  }));
}

const ANSWER_FAILURES: readonly [ProblemKind, string][] = [
  ['invalid-json', 'the model returned invalid JSON'],
  ['missing', 'the model left out some segments or languages'],
  ['count', 'the model left out or merged some segments'],
  ['tokens', "the model's answer damaged the document's formatting placeholders"],
  ['line-break', "the model's answer broke a line that must stay on one line"],
  ['empty', 'the model returned an empty translation'],
];

function answerFailureMessage(problems: readonly AnswerProblem[]): string {
  const kinds = new Set(problems.map((problem) => problem.kind));
  const found = ANSWER_FAILURES.find(([kind]) => kinds.has(kind));
  return found ? found[1] : 'the model gave an unusable answer';
}

/** Maps a provider failure to words a user can act on; the provider's details stay in `cause`. */
function transportFailure(error: unknown): EngineError {
  if (!(error instanceof ProviderCallError)) {
    return new EngineError('the engine failed unexpectedly', false, { cause: error });
  }
  return new EngineError(transportMessage(error.failure, error.status ?? 0), error.retryable, { cause: error });
}

function transportMessage(failure: ProviderCallError['failure'], status: number): string {
  if (failure === 'timeout') return 'the model did not answer in time';
  if (failure === 'network') return 'the model provider could not be reached';
  if (failure === 'bad-response') return 'the model provider sent an unreadable response';
  if (status === 401 || status === 403) return "the model provider refused the service's credentials";
  if (status === 404) return 'the configured model does not exist at the model provider';
  if (status === 429) return 'the model provider is rate limiting this service';
  if (status >= 500) return 'the model provider is unavailable';
  return 'the model provider rejected the request';
}
