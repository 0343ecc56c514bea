/** What `serve` and `worker` both do on start: make the job worker, say which engines serve the models. */
import { JobWorker } from '../jobs/worker.js';
import type { Services } from '../services.js';

export function createJobWorker(services: Services): JobWorker {
  const { config } = services;
  return new JobWorker({
    db: services.database.db,
    dialect: services.jobDialect,
    engines: services.engines,
    memory: services.memory,
    documents: services.documents,
    logger: services.logger.child({ component: 'worker' }),
    concurrency: config.workerConcurrency,
    leaseMs: config.jobLeaseMs,
    retentionMs: config.jobRetentionMs,
    memoryRetentionMs: config.translationMemoryMs,
    clock: services.clock,
  });
}

export function describeEngines(services: Services): void {
  const { standard, advanced } = services.engines;
  const pseudo = standard.id === 'pseudo' || advanced.id === 'pseudo';
  services.logger.info(
    { standard: standard.id, advanced: advanced.id },
    pseudo
      ? 'models: the built-in pseudo engine serves at least one model (pseudo-localization, not a translation); set MODEL_STANDARD / MODEL_ADVANCED for a real model'
      : 'models are served by the configured engines',
  );
}
