/**
 * The engine a job runs with: the configured one, behind a gate that asks before every
 * model call whether the job's owner canceled it, and a meter of the calls that
 * returned — so a canceled job stops before its next call and is charged exactly the
 * calls it made (docs/jobs.md).
 */
import type { ChunkTranslation, TranslateChunkInput, TranslationEngine } from '../engines/engine.js';
import type { Usage } from '../usage/ledger.js';

/** Thrown by the gate; the worker turns it into a `canceled` job. */
export class JobCanceled extends Error {
  constructor() {
    super('the job was canceled by its owner');
    this.name = 'JobCanceled';
  }
}

export interface GatedEngine {
  readonly engine: TranslationEngine;
  /** The usage of every call that returned so far. */
  readonly usage: () => Usage;
}

export function gatedEngine(engine: TranslationEngine, isCanceled: () => Promise<boolean>): GatedEngine {
  const spent = { inputTokens: 0, outputTokens: 0 };
  return {
    engine: {
      id: engine.id,
      budget: engine.budget,
      async translate(input: TranslateChunkInput): Promise<ChunkTranslation> {
        if (await isCanceled()) throw new JobCanceled();
        const result = await engine.translate(input);
        spent.inputTokens += result.usage.inputTokens;
        spent.outputTokens += result.usage.outputTokens;
        return result;
      },
    },
    usage: () => ({ ...spent }),
  };
}
