/**
 * A JobWorker over a test app's services, as run/start-up.ts makes one for a process (its
 * database, dialect, memory, documents, detector and tokenizer), with the short lease,
 * poll and retry times tests want; `options` changes any of them (the engines, say).
 */
import { JobWorker, type WorkerOptions } from '../../src/jobs/worker.js';
import type { Services } from '../../src/services.js';

export function testJobWorker(services: Services, options: Partial<WorkerOptions> = {}): JobWorker {
  return new JobWorker(
    Object.assign(
      {
        db: services.database.db,
        dialect: services.jobDialect,
        engines: services.engines,
        memory: services.memory,
        documents: services.documents,
        detector: services.detector,
        tokenizer: services.tokenizer,
        logger: services.logger,
        concurrency: 2,
        leaseMs: 30_000,
        retentionMs: 24 * 3600_000,
        pollIntervalMs: 100,
        retryBaseMs: 10,
      },
      options,
    ),
  );
}
