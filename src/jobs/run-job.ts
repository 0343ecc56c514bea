/**
 * What a worker does with one claimed job: the same translateDocument as the
 * synchronous routes, then an outcome the worker turns into SQL.
 */
import type { LanguageDetector } from '../detection/detect-language.js';
import { EngineError } from '../engines/engine.js';
import type { EngineRegistry } from '../engines/registry.js';
import { boundMessage, isServiceError } from '../errors.js';
import { findLanguage } from '../languages.js';
import { resolveSource } from '../translation/detect-source.js';
import { instructionsOf } from '../translation/instructions.js';
import { prepareDocument, translatePrepared, type PrepareOptions } from '../translation/translate-document.js';
import type { Tokenizer } from '../tokens.js';
import type { Usage } from '../usage/ledger.js';
import type { JobRow } from './dialect.js';
import { gatedEngine, JobCanceled } from './cancel-gate.js';
import type { JobRequest } from './queue.js';
import { workContext, type WorkContextDeps } from '../translation/work-context.js';

export type JobOutcome =
  | {
      readonly kind: 'completed';
      readonly translations: Record<string, string>;
      readonly usage: Usage;
      /** Pairs served from memory; glossary misses, undefined when no glossary applied. */
      readonly memory: { readonly cachedSegments: number; readonly glossaryMisses: number | undefined };
      /** For the log: model calls made and input tokens the provider had cached. */
      readonly calls: number;
      readonly cachedInputTokens: number;
    }
  | { readonly kind: 'retry'; readonly error: string }
  /** Its owner canceled it; `usage` is what the calls made before that cost. */
  | { readonly kind: 'canceled'; readonly usage: Usage }
  | { readonly kind: 'failed'; readonly error: string };

export const INTERNAL_FAILURE = 'the job failed because of an internal error';

/** The process's parts a job's document is read and translated with. */
export interface JobParts {
  readonly documents: PrepareOptions;
  readonly detector: LanguageDetector;
  readonly tokenizer: Tokenizer;
}

export async function runJob(
  job: JobRow,
  engines: EngineRegistry,
  signal: AbortSignal,
  parts: JobParts,
  storage?: WorkContextDeps,
  /** Asked before every model call; true stops the job as `canceled`. Default: never. */
  isCanceled?: () => Promise<boolean>,
): Promise<JobOutcome> {
  const request = JSON.parse(job.request) as JobRequest;
  const gate = gatedEngine(engines[request.model], isCanceled ?? (async () => false));
  try {
    const targets = request.targets.map((requested) => ({ requested, language: findLanguage(requested)! }));
    const source = request.source === undefined ? undefined : findLanguage(request.source);
    // Without storage (unit tests of the loop) there is no memory and no glossary.
    const context = storage
      ? await workContext(storage, job.user_id, {
          memory: request.memory !== false,
          ...(request.glossary_id !== undefined ? { glossaryId: request.glossary_id } : {}),
          ...(source ? { source } : {}),
        })
      : {};
    const prepared = await prepareDocument(request.content, request.format, parts.documents);
    // Released (shutdown, lost lease) while the document was being read: no model call.
    if (signal.aborted) prepared.release();
    signal.throwIfAborted();
    // Like /translate: without a source, a confident detection is the model's hint and part
    // of the memory key, so a job and a request for the same text share memory.
    const { source: hinted } = await resolveSource(source, [prepared], parts.detector);
    const instructions = instructionsOf(request.formality, request.context);
    const result = await translatePrepared({
      prepared,
      targets,
      ...(hinted ? { source: hinted } : {}),
      engine: gate.engine,
      tokenizer: parts.tokenizer,
      cancellation: { signal },
      ...(instructions ? { instructions } : {}),
      ...context,
    }).finally(() => prepared.release());
    return {
      kind: 'completed',
      translations: result.translations,
      usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens },
      memory: {
        cachedSegments: result.cachedSegments,
        glossaryMisses: request.glossary_id !== undefined ? result.glossaryMisses : undefined,
      },
      calls: result.calls,
      cachedInputTokens: result.usage.cachedInputTokens ?? 0,
    };
  } catch (error) {
    if (error instanceof JobCanceled) return { kind: 'canceled', usage: gate.usage() };
    if (error instanceof EngineError) return { kind: error.retryable ? 'retry' : 'failed', error: boundMessage(error.message) };
    if (isServiceError(error)) return { kind: 'failed', error: error.message };
    throw error;
  }
}
