/**
 * The composition root: the one place configuration becomes concrete parts (database,
 * job dialect, rate limiter, engines, logger). Everything else takes them as arguments.
 */
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { keyChangesOf } from './accounts/key-changes.js';
import { openDatabase } from './db/database.js';
import type { AppDeps } from './deps.js';
import { instrumentedRegistry } from './engines/instrumented.js';
import { ProviderLimits } from './engines/provider-limit.js';
import { createEngineRegistry, type EngineRegistry } from './engines/registry.js';
import { createJobDialect } from './jobs/create-dialect.js';
import { createLogger } from './logger.js';
import { recentEntriesOf } from './memory/recent-entries.js';
import { createRateLimiter } from './ratelimit/create.js';
import { createDocumentProcessing } from './translation/document-processing.js';

export interface Services extends AppDeps {
  close(): Promise<void>;
}

export async function createServices(
  config: Config,
  overrides: { logger?: Logger; clock?: () => number; engines?: EngineRegistry } = {},
): Promise<Services> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const database = openDatabase(config.database);
  // Memory deleted by other processes is heard with key changes (decision 0042); the feed
  // is trusted only once a server's watch runs (http/plugins/auth.ts).
  recentEntriesOf(database.db).follow(keyChangesOf(database.db));
  const limiter = await createRateLimiter(config, logger);
  const documents = createDocumentProcessing(config);
  return {
    config,
    database,
    jobDialect: createJobDialect(database, logger),
    // Counted for GET /metrics: configured engines and a test's alike.
    engines: instrumentedRegistry(overrides.engines ?? createEngineRegistry(config, new ProviderLimits())),
    limiter,
    documents,
    logger,
    clock: overrides.clock ?? Date.now,
    async close() {
      await documents.pool.close();
      await limiter.close();
      await database.close();
    },
  };
}
