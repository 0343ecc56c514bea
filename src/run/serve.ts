/**
 * Runs the API (and, unless told otherwise, job workers in the same process), and
 * shuts down cleanly on SIGTERM/SIGINT: stop accepting, let in-flight requests and
 * jobs finish within the grace period, return unfinished jobs to the queue, exit.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { migrateToLatest } from '../db/migrate.js';
import { buildApp } from '../http/app.js';
import { createServices } from '../services.js';
import { createFirstKeyIfNone } from './first-key.js';
import { onShutdownSignal } from './shutdown.js';
import { createJobWorker, createWebhookSender, describeEngines } from './start-up.js';

export interface ServeOptions {
  readonly workers: boolean;
  readonly migrate: boolean;
}

export async function serve(config: Config, options: ServeOptions): Promise<void> {
  const services = await createServices(config);
  const { logger } = services;
  const worker = options.workers ? createJobWorker(services) : undefined;
  const sender = worker ? createWebhookSender(services, worker) : undefined;
  const app = await buildApp(services);
  // Signals are handled from the first moment; a shutdown lets start-up finish first, so
  // nothing it opened is left behind and the exit code stays 0.
  const startup = (async () => {
    if (options.migrate) await migrateToLatest(services.database.db);
    describeEngines(services);
    // Nearly every request detects its source: the detector's table is loaded before the
    // first one arrives, not while the first requests of a start wait behind it.
    await services.detector.load();
    const address = await app.listen({ host: config.host, port: config.port });
    logger.info({ address: `${address}/v1`, workers: options.workers ? config.workerConcurrency : 0 }, 'translate-service is listening');
    const { port } = app.server.address() as { port: number };
    await createFirstKeyIfNone(services, port);
    await worker?.start();
    await sender?.start();
  })();
  onShutdownSignal(logger, async () => {
    await startup.catch(() => {});
    await Promise.all([closeHttp(app), worker?.stop(config.shutdownGraceMs), sender?.close(config.shutdownGraceMs)]);
    await services.close();
  }, config.shutdownGraceMs);
  await startup;
}

/**
 * Stops accepting and waits for in-flight requests. A keep-alive connection whose
 * request finishes after close() began would otherwise hold the server open until the
 * client lets go, so idle connections are closed as they appear.
 */
async function closeHttp(app: FastifyInstance): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
  }
}
