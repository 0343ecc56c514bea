/**
 * Where documents are read and within which limits, made once from configuration
 * (services.ts) and handed to every caller of prepareDocument: the routes' service and
 * the job worker.
 */
import type { Config } from '../config.js';
import type { DocumentLimits } from '../formats/format.js';
import { DocumentPool } from './document-pool.js';
import type { PrepareOptions } from './translate-document.js';

export interface DocumentProcessing extends PrepareOptions {
  readonly pool: DocumentPool;
  readonly limits: DocumentLimits;
}

/** `largeDocumentChars` overrides LARGE_DOCUMENT_CHARS (benches that read everything inline). */
export function createDocumentProcessing(config: Config, largeDocumentChars?: number): DocumentProcessing {
  return {
    pool: new DocumentPool({
      timeLimitMs: config.documentTimeLimitMs,
      memoryLimitMb: config.documentMemoryLimitMb,
      niceness: config.documentWorkerNiceness,
    }),
    limits: config.documentLimits,
    ...(largeDocumentChars === undefined ? {} : { largeDocumentChars }),
  };
}
