/**
 * A fresh, migrated database of one backend with the real job dialect, plus helpers to
 * enqueue jobs and run real JobWorkers over it (with an engine the test controls).
 */
import { Writable } from 'node:stream';
import { createKey } from '../../src/accounts/keys.js';
import { parseDatabaseUrl } from '../../src/config.js';
import { openDatabase, type Database, type Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { EngineError, type ChunkTranslation, type TranslateChunkInput, type TranslationEngine } from '../../src/engines/engine.js';
import { PseudoEngine } from '../../src/engines/pseudo.js';
import { testTokenizer } from '../helpers/tokenizer.js';
import type { EngineRegistry } from '../../src/engines/registry.js';
import { createJobDialect } from '../../src/jobs/create-dialect.js';
import type { JobDialect, JobRow } from '../../src/jobs/dialect.js';
import { insertJob } from '../../src/jobs/queue.js';
import { JobWorker, type WorkerOptions } from '../../src/jobs/worker.js';
import { createLogger } from '../../src/logger.js';
import { TranslationMemory } from '../../src/memory/translation-memory.js';
import { ChangeFeed } from '../../src/cache/change-feed.js';
import { createTestDatabase, type Backend } from '../helpers/backends.js';

export interface QueueFixture {
  readonly database: Database;
  readonly dialect: JobDialect;
  /** Opens another connection pool on the same database, as another process would. */
  openAnother(): { database: Database; dialect: JobDialect };
  user(): Promise<string>;
  enqueue(userId: string, content?: string, now?: number): Promise<JobRow>;
  worker(options?: Partial<WorkerOptions>): JobWorker;
  close(): Promise<void>;
}

export const quietLogger = createLogger('silent', new Writable({ write: (_c, _e, done) => done() }));

export async function openQueueFixture(backend: Backend): Promise<QueueFixture> {
  const testDatabase = await createTestDatabase(backend);
  const opened: { database: Database; dialect: JobDialect }[] = [];
  const workers: JobWorker[] = [];
  const openAnother = () => {
    const database = openDatabase(parseDatabaseUrl(testDatabase.url));
    const entry = { database, dialect: createJobDialect(database, quietLogger) };
    opened.push(entry);
    return entry;
  };
  const main = openAnother();
  await migrateToLatest(main.database.db);
  return {
    ...main,
    openAnother,
    async user() {
      const created = await createKey(main.database.db, { tier: 'scale', now: Date.now() });
      return created.userId;
    },
    enqueue(userId, content = 'Hello, world!', now = Date.now()) {
      return insertJob(main.database.db, { userId, request: { content, targets: ['fr'], model: 'standard' }, now });
    },
    worker(options = {}) {
      const worker = new JobWorker({
        db: main.database.db,
        dialect: main.dialect,
        engines: engines(new PseudoEngine({ maxInputTokens: 6_000, maxOutputTokens: 16_384 }, testTokenizer)),
        logger: quietLogger,
        concurrency: 2,
        leaseMs: 60_000,
        retentionMs: 30 * 24 * 3600_000,
        retryBaseMs: 10,
        // Retries become runnable after their backoff; a short poll finds them quickly.
        pollIntervalMs: 50,
        ...options,
        // No change feed is heard here: entries are kept for the short life only.
        memory: options.memory ?? new TranslationMemory(main.database.db, { feed: new ChangeFeed(), clock: Date.now }),
      });
      workers.push(worker);
      return worker;
    },
    async close() {
      await Promise.all(workers.map((w) => w.stop(0)));
      for (const { database } of opened) await database.close();
      await testDatabase.drop();
    },
  };
}

export function engines(engine: TranslationEngine): EngineRegistry {
  return { standard: engine, advanced: engine };
}

/** Fails with a retryable EngineError the first `failures` calls, then translates. */
export class FlakyEngine implements TranslationEngine {
  readonly id = 'flaky';
  readonly budget = { maxInputTokens: 6_000, maxOutputTokens: 16_384 };
  calls = 0;
  private readonly inner = new PseudoEngine(this.budget, testTokenizer);

  constructor(private readonly failures: number) {}

  async translate(input: TranslateChunkInput): Promise<ChunkTranslation> {
    this.calls += 1;
    if (this.calls <= this.failures) throw new EngineError('the model timed out', true);
    return this.inner.translate(input);
  }
}

/** Resolves when `worker` has emitted `event` for every id in `ids`. */
export function waitForEvents(worker: JobWorker, event: string, ids: readonly string[], timeoutMs = 10_000): Promise<void> {
  const pending = new Set(ids);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${event} of ${[...pending].join(', ')}`)), timeoutMs);
    const onEvent = (id: string) => {
      pending.delete(id);
      if (pending.size === 0) {
        clearTimeout(timer);
        worker.off(event, onEvent);
        resolve();
      }
    };
    worker.on(event, onEvent);
  });
}

/** The oldest runnable pending job claimed for `workerId`, as a worker's claim of one. */
export async function claimOne(dialect: JobDialect, db: Db, workerId: string, leaseMs: number, now: number): Promise<JobRow | undefined> {
  return (await dialect.claimBatch(db, workerId, leaseMs, now, 1))[0];
}
