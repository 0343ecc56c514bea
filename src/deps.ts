/** What the app and the workers are built from; made in one place (services.ts) from config. */
import type { Logger } from 'pino';
import type { KeyCache } from './accounts/key-cache.js';
import type { ChangeFeed } from './cache/change-feed.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import type { LanguageDetector } from './detection/detect-language.js';
import type { EngineRegistry } from './engines/registry.js';
import type { IdempotencyStore } from './idempotency/store.js';
import type { JobDialect } from './jobs/dialect.js';
import type { TranslationMemory } from './memory/translation-memory.js';
import type { RateLimiter } from './ratelimit/limiter.js';
import type { Tokenizer } from './tokens.js';
import type { DocumentProcessing } from './translation/document-processing.js';
import type { GroupCommit } from './usage/group-commit.js';

export interface AppDeps {
  readonly config: Config;
  readonly database: Database;
  readonly jobDialect: JobDialect;
  readonly engines: EngineRegistry;
  readonly limiter: RateLimiter;
  /** The document worker pool and the limits documents are read within. */
  readonly documents: DocumentProcessing;
  /** The source-language detector, its table loaded on first use (detection/detect-language.ts). */
  readonly detector: LanguageDetector;
  /** The o200k tokenizer: the pseudo engine's usage and the planner's counts (tokens.ts). */
  readonly tokenizer: Tokenizer;
  /** First answers to requests sent with an Idempotency-Key, shared by the POST routes. */
  readonly idempotency: IdempotencyStore;
  readonly logger: Logger;
  /** Milliseconds since the epoch; injectable so month boundaries and windows can be tested. */
  readonly clock: () => number;
  /** What tells this process's caches that keys, users or memory changed (cache/change-feed.ts). */
  readonly changes: ChangeFeed;
  /** Key lookups, cached until keys change (accounts/key-cache.ts). */
  readonly keys: KeyCache;
  /** This process's side of translation memory (memory/translation-memory.ts). */
  readonly memory: TranslationMemory;
  /** Request charges committed together (usage/group-commit.ts). */
  readonly charges: GroupCommit;
}
