/**
 * The composition root: the one place configuration becomes concrete parts — database,
 * job dialect, rate limiter, engines, logger, and every part that holds state for the
 * process (the change feed and its watch, the key cache, translation memory, the group
 * commit). Everything else takes them as arguments; each has a close(), called here in
 * the reverse order of making.
 */
import type { Logger } from 'pino';
import { KeyCache } from './accounts/key-cache.js';
import { ChangeFeed } from './cache/change-feed.js';
import { watchChanges } from './cache/change-watch.js';
import type { Config } from './config.js';
import { openDatabase } from './db/database.js';
import { LanguageDetector } from './detection/detect-language.js';
import type { AppDeps } from './deps.js';
import { instrumentedRegistry } from './engines/instrumented.js';
import { ProviderLimits } from './engines/provider-limit.js';
import { createEngineRegistry, type EngineRegistry } from './engines/registry.js';
import { IdempotencyStore } from './idempotency/store.js';
import { createJobDialect } from './jobs/create-dialect.js';
import { createLogger } from './logger.js';
import { TranslationMemory } from './memory/translation-memory.js';
import { createRateLimiter } from './ratelimit/create.js';
import { createDocumentProcessing } from './translation/document-processing.js';
import { loadSentenceRules } from './translation/sentence-parts.js';
import { Tokenizer } from './tokens.js';
import { GroupCommit } from './usage/group-commit.js';

export interface Services extends AppDeps {
  close(): Promise<void>;
}

export async function createServices(
  config: Config,
  overrides: { logger?: Logger; clock?: () => number; engines?: EngineRegistry; largeDocumentChars?: number } = {},
): Promise<Services> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const clock = overrides.clock ?? Date.now;
  const database = openDatabase(config.database);
  const limiter = await createRateLimiter(config, logger);
  const documents = createDocumentProcessing(config, overrides.largeDocumentChars);
  const detector = new LanguageDetector();
  // The first request that looks for sentences (decision 0122) would otherwise wait for
  // ICU to load its sentence rules, once per process (decision 0124).
  loadSentenceRules();
  const tokenizer = new Tokenizer();
  // Every process that caches hears the database's changes, API and worker alike (docs/caches.md).
  const changes = new ChangeFeed();
  const watch = await watchChanges(database, changes, logger);
  const keys = new KeyCache(database.db, { feed: changes, clock });
  const memory = new TranslationMemory(database.db, { feed: changes, clock });
  const charges = new GroupCommit(database.db);
  // Expired keys are swept by every process that has the store, at a jittered interval
  // (deleting expired rows twice is harmless), as finished jobs are.
  const idempotency = new IdempotencyStore(database.db, {
    clock,
    onSweepError: (error) => logger.warn({ err: error }, 'sweeping expired idempotency keys failed; the next sweep retries'),
  });
  idempotency.startSweeping();
  // Counted for GET /metrics: configured engines and a test's alike.
  const engines = instrumentedRegistry(overrides.engines ?? createEngineRegistry(config, { providerLimits: new ProviderLimits(), tokenizer }));
  return {
    config,
    database,
    jobDialect: createJobDialect(database, logger),
    engines,
    limiter,
    documents,
    detector,
    tokenizer,
    idempotency,
    logger,
    clock,
    changes,
    keys,
    memory,
    charges,
    async close() {
      // Apertium's pipelines are processes of their own: stopped with the services.
      engines.standard.close?.();
      if (engines.advanced !== engines.standard) engines.advanced.close?.();
      await idempotency.close();
      await charges.close();
      memory.close();
      keys.close();
      await watch.close();
      await documents.pool.close();
      detector.close();
      tokenizer.close();
      await limiter.close();
      await database.close();
    },
  };
}
