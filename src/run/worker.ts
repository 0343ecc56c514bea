/**
 * Runs job workers only, and shuts down cleanly on SIGTERM/SIGINT: let in-flight jobs
 * finish within the grace period, return unfinished jobs to the queue, exit. Nothing
 * here reaches Fastify (test/architecture/layering.test.ts checks it).
 */
import type { Config } from '../config.js';
import { migrateToLatest } from '../db/migrate.js';
import { createServices } from '../services.js';
import { onShutdownSignal } from './shutdown.js';
import { createJobWorker, createWebhookSender, describeEngines } from './start-up.js';

export interface WorkerOptions {
  readonly migrate: boolean;
}

export async function runWorker(config: Config, options: WorkerOptions): Promise<void> {
  const services = await createServices(config);
  const worker = createJobWorker(services);
  const sender = createWebhookSender(services, worker);
  const startup = (async () => {
    if (options.migrate) await migrateToLatest(services.database.db);
    describeEngines(services);
    await worker.start();
    await sender.start();
    services.logger.info({ workerId: worker.workerId, concurrency: config.workerConcurrency }, 'worker is running');
  })();
  onShutdownSignal(services.logger, async () => {
    await startup.catch(() => {});
    await Promise.all([worker.stop(config.shutdownGraceMs), sender.close(config.shutdownGraceMs)]);
    await services.close();
  }, config.shutdownGraceMs);
  await startup;
}
