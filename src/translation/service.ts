/**
 * Synchronous translation for a user: access and pre-check, the work, and the charge
 * for delivered work only. A failure of the engine becomes 500 translation_error.
 */
import type { Logger } from 'pino';
import type { User } from '../accounts/users.js';
import type { LanguageDetector } from '../detection/detect-language.js';
import { EngineError, type TokenUsage, type TranslationEngine } from '../engines/engine.js';
import type { EngineRegistry } from '../engines/registry.js';
import { ServiceError } from '../errors.js';
import type { TranslationMemory } from '../memory/translation-memory.js';
import { assertModelAccess, reserveForPreCheck, type ReservationDeps } from '../usage/access.js';
import { estimateBatchTokens, estimateTokens } from '../usage/estimate.js';
import type { Tokenizer } from '../tokens.js';
import type { GroupCommit } from '../usage/group-commit.js';
import { chargeRequest, releaseReservation } from '../usage/ledger.js';
import type { Cancellation } from './cancellation.js';
import { resolveSource, type ResolvedSource, type SourceDetection } from './detect-source.js';
import { assertDirections } from './language-directions.js';
import type { DocumentProcessing } from './document-processing.js';
import type { BatchInput, TranslateInput, TranslationRequest } from './requests.js';
import type { WorkTally } from './translate-options.js';
import { workContext, type WorkContext } from './work-context.js';
import {
  firstDocument,
  prepareDocument,
  prepareDocuments,
  translatePreparedAll,
  type DocumentTranslation,
  type DocumentsTranslation,
  type PreparedDocument,
} from './translate-document.js';

/** What synchronous translation uses: the reservation's deps, engines, memory, the group commit, the document pool, a logger. */
export interface TranslationServiceDeps extends ReservationDeps {
  readonly engines: EngineRegistry;
  readonly memory: TranslationMemory;
  /** Where charges are committed together (usage/group-commit.ts). */
  readonly charges: GroupCommit;
  readonly documents: DocumentProcessing;
  readonly detector: LanguageDetector;
  readonly tokenizer: Tokenizer;
  readonly logger: Logger;
}

/**
 * What a delivered request's work cost: its model calls, their tokens and time. The caller
 * reports it (the HTTP layer puts it on the request's one access line, decision 0037).
 */
export interface WorkSummary {
  readonly documents: number;
  readonly targets: number;
  readonly modelCalls: number;
  readonly cachedSegments: number;
  readonly inputTokens: number;
  readonly cachedInputTokens: number;
  readonly cacheWriteTokens?: number;
  readonly outputTokens: number;
  readonly ms: number;
}

export interface BatchTranslation {
  readonly work: WorkSummary;
  readonly results: ReadonlyArray<{ id: string; translations: Record<string, string> }>;
  readonly usage: TokenUsage;
  readonly cachedSegments: number;
  readonly glossaryMisses: number;
  /** Aligned with `results` when the request omitted its source; undefined where nothing could be judged. */
  readonly sourceDetections?: ReadonlyArray<SourceDetection | undefined>;
}

export interface SourcedTranslation extends DocumentTranslation {
  readonly work: WorkSummary;
  /** Present when the request omitted its source and the text held something to judge. */
  readonly sourceDetection?: SourceDetection;
}

/**
 * How a caller follows one document's translation as it happens (a streamed answer):
 * `started` once every check has passed and the reservation is held, so failures before it
 * are the usual error answers; then `targetDone` for each target, in the order targets
 * finish. The work may still fail after either, and is then not charged.
 */
export interface TranslationProgress {
  started(): void;
  targetDone(target: string, text: string): void;
}

export async function translateForUser(
  deps: TranslationServiceDeps,
  user: User,
  input: TranslateInput,
  cancellation: Cancellation,
  progress?: TranslationProgress,
): Promise<SourcedTranslation> {
  const context = await workContext(deps, user.id, input);
  const prepared = await prepareDocument(input.content, input.format, deps.documents);
  try {
    const estimate = estimateTokens(input.content.length, input.targets.length);
    const { result, detections, work } = await translateReserved(deps, user, input, [prepared], estimate, cancellation, context, progress);
    const sourceDetection = detections?.[0];
    return { work, ...firstDocument(result), ...(sourceDetection ? { sourceDetection } : {}) };
  } finally {
    prepared.release();
  }
}

export async function translateBatchForUser(
  deps: TranslationServiceDeps,
  user: User,
  input: BatchInput,
  cancellation: Cancellation,
): Promise<BatchTranslation> {
  const context = await workContext(deps, user.id, input);
  const prepared = await prepareDocuments(input.items, deps.documents);
  try {
    const estimate = estimateBatchTokens(
      input.items.map((item) => item.content),
      input.targets.length,
    );
    const { result, detections: sourceDetections, work } = await translateReserved(deps, user, input, prepared, estimate, cancellation, context);
    return {
      work,
      results: input.items.map((item, i) => ({ id: item.id, translations: result.documents[i]!.translations })),
      usage: result.usage,
      ...(sourceDetections ? { sourceDetections } : {}),
      cachedSegments: result.cachedSegments,
      glossaryMisses: result.glossaryMisses,
    };
  } finally {
    for (const document of prepared) document.release();
  }
}

/** The request's engine, once the user may use it and it serves the source and targets named. */
export function checkedEngine(deps: TranslationServiceDeps, user: User, input: TranslationRequest): TranslationEngine {
  assertModelAccess(user, input.model);
  const engine = deps.engines[input.model];
  if (input.source) assertDirections(engine, input.source, input.targets);
  return engine;
}

/**
 * Translates `prepared` after every check, under the pre-check reservation. All documents
 * are one piece of work: planned together, one caller for fair slots, and the first
 * failure cancels every other call (translatePreparedAll).
 */
async function translateReserved(
  deps: TranslationServiceDeps,
  user: User,
  input: TranslationRequest,
  prepared: readonly PreparedDocument[],
  estimate: number,
  cancellation: Cancellation,
  context: WorkContext,
  progress?: TranslationProgress,
): Promise<{ result: DocumentsTranslation; detections: ResolvedSource['detections']; work: WorkSummary }> {
  const engine = checkedEngine(deps, user, input);
  // An engine with directions needs the source before the answer starts: detected here,
  // before the reservation and the stream's `started`, so a refusal is an error answer.
  const early = engine.directions && !input.source ? await resolveSource(undefined, prepared, deps.detector) : undefined;
  if (early) assertDirections(engine, early.source, input.targets);
  return withReservation(deps, user, estimate, async () => {
    progress?.started();
    const started = performance.now();
    const { source, detections } = early ?? (await resolveSource(input.source, prepared, deps.detector));
    const result = await asTranslationError(() =>
      translatePreparedAll(prepared, {
        targets: input.targets,
        ...(source ? { source } : {}),
        engine,
        tokenizer: deps.tokenizer,
        cancellation,
        ...(input.instructions ? { instructions: input.instructions } : {}),
        ...(progress ? { onTargetDone: (target, [text]) => progress.targetDone(target.requested, text!) } : {}),
        ...context,
      }),
    );
    const work = summarize(result, { documents: prepared.length, targets: input.targets.length, started });
    return { value: { result, detections, work }, usage: result.usage };
  });
}

function summarize(
  work: WorkTally,
  shape: { readonly documents: number; readonly targets: number; readonly started: number },
): WorkSummary {
  const { usage } = work;
  return {
    documents: shape.documents,
    targets: shape.targets,
    modelCalls: work.calls,
    cachedSegments: work.cachedSegments,
    inputTokens: usage.inputTokens,
    cachedInputTokens: usage.cachedInputTokens ?? 0,
    ...(usage.cacheWriteTokens ? { cacheWriteTokens: usage.cacheWriteTokens } : {}),
    outputTokens: usage.outputTokens,
    ms: Math.round(performance.now() - shape.started),
  };
}

/** Holds the pre-check reservation around `work`; charges on success, releases on failure. */
async function withReservation<T>(
  deps: TranslationServiceDeps,
  user: User,
  estimate: number,
  work: () => Promise<{ value: T; usage: TokenUsage }>,
): Promise<T> {
  const { db } = deps.database;
  const reservationId = await reserveForPreCheck(deps, user, estimate);
  let delivered = false;
  try {
    const { value, usage } = await work();
    await chargeRequest(deps.charges, { userId: user.id, usage, now: deps.clock(), ...(reservationId ? { reservationId } : {}) });
    delivered = true;
    return value;
  } finally {
    if (!delivered && reservationId) {
      await releaseReservation(db, reservationId).catch((error) => {
        deps.logger.error({ err: error }, 'releasing a token reservation failed; it expires on its own');
      });
    }
  }
}

async function asTranslationError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof EngineError) {
      throw new ServiceError('translation_error', `translation failed: ${error.message}; it is safe to retry`, { cause: error });
    }
    throw error;
  }
}
