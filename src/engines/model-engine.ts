/**
 * The engine behind `openai:<model>` and `anthropic:<model>`: one model call per chunk
 * for all targets, every answer checked, bad answers repaired once, then the call made
 * once more, then a plain-worded EngineError.
 *
 *   call ──▶ check ──ok──▶ done
 *              │ problems
 *              ▼
 *   repair (only the failing pairs, each with its problem) ──▶ check ──ok──▶ done
 *              │ still failing
 *              ▼
 *   call again (only the pairs still missing) ──▶ check ──ok──▶ done
 *              │ still failing
 *              ▼
 *   EngineError(retryable) — a job may run again; the sync API answers translation_error
 *
 * Good pairs are kept from every round, so a later round only asks for what is left.
 * Each model call is itself retried on transport faults (retry.ts) and runs under the
 * provider's shared concurrency cap (provider-limit.ts). Usage is the provider's own
 * count, summed over every call that returned one.
 */
import {
  EngineError,
  type CallBudget,
  type ChunkTranslation,
  type EngineSegment,
  type TranslateChunkInput,
  type TranslationEngine,
} from './engine.js';
import type { ModelAnswer, ModelClient } from './model-client.js';
import { parseAnswerText } from './parse-answer.js';
import { SYSTEM_PROMPT, answerSchema, buildUserMessage, type FixRequest } from './prompt.js';
import { ProviderCallError } from './provider-http.js';
import { providerLimit, runLimited } from './provider-limit.js';
import { DEFAULT_RETRY_POLICY, withRetry, type RetryPolicy } from './retry.js';
import { checkAnswer, type ExpectedPair, type PairProblem, type ProblemKind } from './validate.js';

export interface ModelEngineOptions {
  readonly client: ModelClient;
  readonly budget: CallBudget;
  /** One HTTP attempt's limit (config.engineTimeoutMs). */
  readonly timeoutMs: number;
  /** Calls in flight per provider in this process (config.engineConcurrency). */
  readonly concurrency: number;
  /** Tests inject a clock and a random source here. */
  readonly retry?: Partial<RetryPolicy>;
}

type Round = 'call' | 'repair';
const ROUNDS: readonly Round[] = ['call', 'repair', 'call'];

export class ModelEngine implements TranslationEngine {
  readonly id: string;
  readonly budget: CallBudget;
  private readonly client: ModelClient;
  private readonly retry: RetryPolicy;

  constructor(private readonly options: ModelEngineOptions) {
    this.client = options.client;
    this.id = `${options.client.provider}:${options.client.model}`;
    this.budget = options.budget;
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  }

  async translate(chunk: TranslateChunkInput): Promise<ChunkTranslation> {
    chunk.signal?.throwIfAborted();
    // On the wire a segment is known by its 1-based position in the chunk (prompt.ts).
    const input: TranslateChunkInput = {
      ...chunk,
      segments: chunk.segments.map((segment, index) => ({ ...segment, id: String(index + 1) })),
    };
    const usage = { inputTokens: 0, outputTokens: 0 };
    const byPosition = new Map<string, Map<string, string>>(input.targets.map((t) => [t.code, new Map()]));
    let pending: ExpectedPair[] = input.targets.flatMap((target) =>
      input.segments.map((segment) => ({ lang: target.code, segment })),
    );
    let problems: PairProblem[] = [];
    let invalidJson = false;

    for (const round of ROUNDS) {
      const fix = round === 'repair' ? fixRequests(problems, invalidJson) : undefined;
      const answer = await this.call(input, pending, usage, fix);
      const answerValue = isObject(answer.object) ? answer.object : parseAnswerText(answer.text);
      const check = checkAnswer(answerValue, pending, answer.truncated);
      for (const [lang, byId] of check.accepted) {
        for (const [id, text] of byId) byPosition.get(lang)?.set(id, text);
      }
      if (check.problems.length === 0) {
        const translations = new Map(
          [...byPosition].map(([lang, texts]) => [
            lang,
            new Map(chunk.segments.map((segment, index) => [segment.id, texts.get(String(index + 1))!])),
          ]),
        );
        return { translations, usage };
      }
      problems = check.problems;
      invalidJson = check.invalidJson;
      pending = problems.map((problem) => pendingPair(pending, problem));
    }
    throw new EngineError(answerFailureMessage(problems), true);
  }

  /** One model call (with transport retries) for the `pending` pairs; adds its usage. */
  private async call(
    input: TranslateChunkInput,
    pending: readonly ExpectedPair[],
    usage: { inputTokens: number; outputTokens: number },
    fix?: readonly FixRequest[],
  ): Promise<ModelAnswer> {
    const segmentIds = new Set(pending.map((pair) => pair.segment.id));
    const targetCodes = new Set(pending.map((pair) => pair.lang));
    const segments: EngineSegment[] = input.segments.filter((segment) => segmentIds.has(segment.id));
    const targets = input.targets.filter((target) => targetCodes.has(target.code));
    const user = buildUserMessage(
      { segments, targets, format: input.format, ...(input.source ? { source: input.source } : {}) },
      fix,
    );
    const schema = answerSchema(targets.map((target) => target.code));
    const signal = input.signal;
    const limit = providerLimit(this.client.provider, this.options.concurrency);
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
          ),
        this.retry,
        signal,
      );
      usage.inputTokens += answer.usage.inputTokens;
      usage.outputTokens += answer.usage.outputTokens;
      return answer;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw transportFailure(error);
    }
  }
}

function pendingPair(pending: readonly ExpectedPair[], problem: PairProblem): ExpectedPair {
  const pair = pending.find((p) => p.lang === problem.lang && p.segment.id === problem.id);
  if (!pair) throw new Error(`problem for a pair that was not asked for: ${problem.lang}/${problem.id}`);
  return pair;
}

/** What the repair call is told: one entry per failing pair, or one for an unreadable answer. */
function fixRequests(problems: readonly PairProblem[], invalidJson: boolean): FixRequest[] {
  if (invalidJson) return [{ problem: 'the answer was not valid JSON in the required shape' }];
  return problems.map(({ lang, id, problem, previous }) => ({
    lang,
    id,
    problem,
    ...(previous !== undefined ? { previous } : {}),
  }));
}

const ANSWER_FAILURES: readonly [ProblemKind, string][] = [
  ['invalid-json', 'the model returned invalid JSON'],
  ['missing', 'the model left out some segments or languages'],
  ['tokens', "the model's answer damaged the document's formatting placeholders"],
  ['line-break', "the model's answer broke a line that must stay on one line"],
  ['empty', 'the model returned an empty translation'],
];

function answerFailureMessage(problems: readonly PairProblem[]): string {
  const kinds = new Set(problems.map((problem) => problem.kind));
  const found = ANSWER_FAILURES.find(([kind]) => kinds.has(kind));
  return found ? found[1] : 'the model gave an unusable answer';
}

/** Maps a provider failure to words a user can act on; the provider's details stay in `cause`. */
function transportFailure(error: unknown): EngineError {
  if (!(error instanceof ProviderCallError)) {
    return new EngineError('the engine failed unexpectedly', false, { cause: error });
  }
  const retryable = error.retryable;
  const say = (message: string): EngineError => new EngineError(message, retryable, { cause: error });
  switch (error.failure) {
    case 'timeout':
      return say('the model did not answer in time');
    case 'network':
      return say('the model provider could not be reached');
    case 'bad-response':
      return say('the model provider sent an unreadable response');
    case 'http':
      break;
  }
  const status = error.status ?? 0;
  if (status === 401 || status === 403) {
    return say("the model provider refused the service's credentials");
  }
  if (status === 404) return say('the configured model does not exist at the model provider');
  if (status === 429) {
    return say('the model provider is rate limiting this service');
  }
  if (status >= 500) return say('the model provider is unavailable');
  return say('the model provider rejected the request');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
