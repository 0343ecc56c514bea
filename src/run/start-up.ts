/**
 * What `serve` and `worker` both do on start: make the job worker and the webhook sender
 * beside it, say which engines serve the models.
 */
import { finishedJobView } from '../jobs/view.js';
import { JobWorker } from '../jobs/worker.js';
import type { Services } from '../services.js';
import { WebhookSender } from '../webhooks/sender.js';

export function createJobWorker(services: Services): JobWorker {
  const { config } = services;
  return new JobWorker({
    db: services.database.db,
    dialect: services.jobDialect,
    engines: services.engines,
    memory: services.memory,
    documents: services.documents,
    detector: services.detector,
    tokenizer: services.tokenizer,
    logger: services.logger.child({ component: 'worker' }),
    concurrency: config.workerConcurrency,
    leaseMs: config.jobLeaseMs,
    retentionMs: config.jobRetentionMs,
    memoryRetentionMs: config.translationMemoryMs,
    clock: services.clock,
  });
}

/**
 * The webhook sender of a worker process, nudged whenever its job worker finishes a job
 * (the finished state and its deliveries commit together); deliveries written by other
 * processes are found on its poll.
 */
export function createWebhookSender(services: Services, worker: JobWorker): WebhookSender {
  const { config, database } = services;
  const sender = new WebhookSender({
    db: database.db,
    config: config.webhooks,
    // Every event is about a job; its data is the job's view as GET /v1/jobs/{id} shows it.
    eventData: (_event, jobId) => finishedJobView(database.db, jobId),
    logger: services.logger.child({ component: 'webhooks' }),
    clock: services.clock,
    retentionMs: config.jobRetentionMs,
  });
  for (const event of ['job:complete', 'job:fail', 'job:cancel']) worker.on(event, () => sender.nudge());
  return sender;
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
