/**
 * Synchronous translation for a user: access and pre-check, the work, and the charge
 * for delivered work only. A failure of the engine becomes 500 translation_error.
 */
import type { User } from '../accounts/users.js';
import type { AppDeps } from '../deps.js';
import { EngineError, type TokenUsage } from '../engines/engine.js';
import { ServiceError } from '../errors.js';
import { estimateBatchTokens, estimateTokens } from '../usage/estimate.js';
import { chargeRequest, releaseReservation } from '../usage/ledger.js';
import { assertModelAccess, reserveForPreCheck } from './access.js';
import { runLimited } from './run-limited.js';
import type { BatchInput, TranslateInput } from './requests.js';
import {
  prepareDocument,
  prepareDocuments,
  translatePrepared,
  type DocumentTranslation,
  type PreparedDocument,
} from './translate-document.js';

/** Batch items translated at once; results keep request order regardless. */
const BATCH_CONCURRENCY = 4;

export interface BatchTranslation {
  readonly results: ReadonlyArray<{ id: string; translations: Record<string, string> }>;
  readonly usage: TokenUsage;
}

export async function translateForUser(
  deps: AppDeps,
  user: User,
  input: TranslateInput,
  signal: AbortSignal,
): Promise<DocumentTranslation> {
  const prepared = await prepareDocument(input.content, input.format, deps.documents);
  try {
    assertModelAccess(user, input.model);
    const estimate = estimateTokens(input.content.length, input.targets.length);
    return await withReservation(deps, user, estimate, async () => {
      const result = await asTranslationError(() =>
        translatePrepared({
          prepared,
          targets: input.targets,
          ...(input.source ? { source: input.source } : {}),
          engine: deps.engines[input.model],
          signal,
        }),
      );
      return { value: result, usage: result.usage };
    });
  } finally {
    prepared.release();
  }
}

export async function translateBatchForUser(
  deps: AppDeps,
  user: User,
  input: BatchInput,
  signal: AbortSignal,
): Promise<BatchTranslation> {
  const prepared = await prepareDocuments(input.items, deps.documents);
  try {
    return await translatePreparedBatch(deps, user, input, prepared, signal);
  } finally {
    for (const document of prepared) document.release();
  }
}

async function translatePreparedBatch(
  deps: AppDeps,
  user: User,
  input: BatchInput,
  prepared: readonly PreparedDocument[],
  signal: AbortSignal,
): Promise<BatchTranslation> {
  assertModelAccess(user, input.model);
  const estimate = estimateBatchTokens(
    input.items.map((item) => item.content),
    input.targets.length,
  );
  return withReservation(deps, user, estimate, async () => {
    // One failed item fails them all: abort the others' model calls at once.
    const batchAbort = new AbortController();
    const onAbort = () => batchAbort.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const results = new Array<DocumentTranslation>(input.items.length);
      await runLimited(prepared, BATCH_CONCURRENCY, async (document, index) => {
        try {
          results[index] = await asTranslationError(() =>
            translatePrepared({
              prepared: document,
              targets: input.targets,
              ...(input.source ? { source: input.source } : {}),
              engine: deps.engines[input.model],
              signal: batchAbort.signal,
            }),
          );
        } catch (error) {
          batchAbort.abort(error);
          throw error;
        }
      });
      signal.throwIfAborted();
      const usage = results.reduce(
        (sum, r) => ({ inputTokens: sum.inputTokens + r.usage.inputTokens, outputTokens: sum.outputTokens + r.usage.outputTokens }),
        { inputTokens: 0, outputTokens: 0 },
      );
      const value = {
        results: input.items.map((item, i) => ({ id: item.id, translations: results[i]!.translations })),
        usage,
      };
      return { value, usage };
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  });
}

/** Holds the pre-check reservation around `work`; charges on success, releases on failure. */
async function withReservation<T>(
  deps: AppDeps,
  user: User,
  estimate: number,
  work: () => Promise<{ value: T; usage: TokenUsage }>,
): Promise<T> {
  const { db } = deps.database;
  const reservationId = await reserveForPreCheck(deps, user, estimate);
  let delivered = false;
  try {
    const { value, usage } = await work();
    await chargeRequest(db, { userId: user.id, usage, now: deps.clock(), ...(reservationId ? { reservationId } : {}) });
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
