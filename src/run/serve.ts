/**
 * Runs the API (and, unless told otherwise, job workers in the same process), and
 * shuts down cleanly on SIGTERM/SIGINT: stop accepting, let in-flight requests and
 * jobs finish within the grace period, return unfinished jobs to the queue, exit.
 */
import type { FastifyInstance } from 'fastify';
import { createKey, countKeys } from '../accounts/keys.js';
import type { Config } from '../config.js';
import { migrateToLatest } from '../db/migrate.js';
import { disarmEarlyExit } from './early-signals.js';
import { JobWorker } from '../jobs/worker.js';
import { createServices, type Services } from '../services.js';
import { buildApp } from '../http/app.js';

export interface ServeOptions {
  readonly workers: boolean;
  readonly migrate: boolean;
}

export async function serve(config: Config, options: ServeOptions): Promise<void> {
  const services = await createServices(config);
  const { logger } = services;
  const worker = options.workers ? createWorker(services) : undefined;
  const app = await buildApp(services);
  // Signals are handled from the first moment; a shutdown lets start-up finish first, so
  // nothing it opened is left behind and the exit code stays 0.
  const startup = (async () => {
    if (options.migrate) await migrateToLatest(services.database.db);
    describeEngines(services);
    const address = await app.listen({ host: config.host, port: config.port });
    logger.info({ address: `${address}/v1`, workers: options.workers ? config.workerConcurrency : 0 }, 'translate-service is listening');
    await createFirstKeyIfNone(services, app);
    await worker?.start();
  })();
  onShutdownSignal(logger, async () => {
    await startup.catch(() => {});
    await Promise.all([closeHttp(app), worker?.stop(config.shutdownGraceMs)]);
    await services.close();
  }, config.shutdownGraceMs);
  await startup;
}

export async function runWorker(config: Config, options: { migrate: boolean }): Promise<void> {
  const services = await createServices(config);
  const worker = createWorker(services);
  const startup = (async () => {
    if (options.migrate) await migrateToLatest(services.database.db);
    describeEngines(services);
    await worker.start();
    services.logger.info({ workerId: worker.workerId, concurrency: config.workerConcurrency }, 'worker is running');
  })();
  onShutdownSignal(services.logger, async () => {
    await startup.catch(() => {});
    await worker.stop(config.shutdownGraceMs);
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

function createWorker(services: Services): JobWorker {
  const { config } = services;
  return new JobWorker({
    db: services.database.db,
    dialect: services.jobDialect,
    engines: services.engines,
    documents: services.documents,
    logger: services.logger.child({ component: 'worker' }),
    concurrency: config.workerConcurrency,
    leaseMs: config.jobLeaseMs,
    retentionMs: config.jobRetentionMs,
    clock: services.clock,
  });
}

function describeEngines(services: Services): void {
  const { standard, advanced } = services.engines;
  const pseudo = standard.id === 'pseudo' || advanced.id === 'pseudo';
  services.logger.info(
    { standard: standard.id, advanced: advanced.id },
    pseudo
      ? 'models: the built-in pseudo engine serves at least one model (pseudo-localization, not a translation); set MODEL_STANDARD / MODEL_ADVANCED for a real model'
      : 'models are served by the configured engines',
  );
}

/** First start with no keys: make one free-tier key and print it once with a working curl. */
async function createFirstKeyIfNone(services: Services, app: FastifyInstance): Promise<void> {
  const { db } = services.database;
  if ((await countKeys(db)) > 0) return;
  const created = await createKey(db, { tier: 'free', name: 'first-run', now: services.clock() });
  const { port } = app.server.address() as { port: number };
  const host = ['0.0.0.0', '::'].includes(services.config.host) ? '127.0.0.1' : services.config.host;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}/v1`;
  const { standard, advanced } = services.engines;
  process.stdout.write(
    [
      '',
      'No API keys existed, so a free-tier key was created. It is shown only this once:',
      '',
      `  ${created.key}`,
      '',
      'Try it:',
      '',
      `  curl -s ${base}/translate -H 'Authorization: Bearer ${created.key}' -H 'Content-Type: application/json' -d '{"content":"Hello, world!","targets":["fr","de"]}'`,
      '',
      `Models: standard -> ${standard.id}, advanced -> ${advanced.id}` +
        (standard.id === 'pseudo' ? ' (pseudo = built-in pseudo-localization, not a real translation)' : ''),
      'More keys: node dist/cli.js keys create --tier free (see README, "Command line")',
      '',
    ].join('\n') + '\n',
  );
}

function onShutdownSignal(logger: Services['logger'], shutdown: () => Promise<void>, graceMs: number): void {
  let shuttingDown = false;
  const handle = (signal: NodeJS.Signals) => {
    if (shuttingDown) {
      logger.info({ signal }, 'already shutting down');
      return;
    }
    shuttingDown = true;
    logger.info({ signal, graceMs }, 'shutting down: finishing in-flight work');
    const force = setTimeout(() => {
      logger.error('shutdown took longer than the grace period allows; exiting');
      process.exit(1);
    }, graceMs + 10_000);
    force.unref();
    shutdown().then(
      () => {
        logger.info('shut down cleanly');
        logger.flush?.();
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  // `on`, not `once`: a second signal during shutdown must not fall back to the default
  // action and kill the process mid-way; the timer above bounds the wait instead.
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
  disarmEarlyExit();
}
