/**
 * A worker process's job loop (after graphile-worker): claim while there are free
 * slots; when there is nothing to claim, wait for a nudge (a job was enqueued or
 * released) or the slow fallback poll. Each running job holds a lease renewed every
 * third of its length. On stop: no new claims, running jobs get the grace period, and
 * whatever is still running is aborted and returned to `pending`.
 *
 * Emits `job:start`, `job:complete`, `job:retry`, `job:fail`, `job:cancel`, `job:release` (with the
 * job id) so tests and logs can follow along without sleeping.
 */
import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { ClaimLoop } from '../db/claim-loop.js';
import type { Db } from '../db/database.js';
import type { TransactionBatcher } from '../db/transaction-batcher.js';
import type { EngineRegistry } from '../engines/registry.js';
import type { TranslationMemory } from '../memory/translation-memory.js';
import { jobDuration, secondsSince } from '../metrics/metrics.js';
import { deleteExpiredReservations } from '../usage/ledger.js';
import type { JobDialect, JobRow } from './dialect.js';
import { isCancelRequested, recordCanceled } from './cancel.js';
import { failJob, jobCompletions, renewLease, returnJobToQueue, type Completion } from './queue.js';
import { pruneQueueCounts } from './queue-counts.js';
import { deleteExpiredJobs, recoverLapsedLeases } from './recover.js';
import { INTERNAL_FAILURE, runJob, type JobParts } from './run-job.js';
import type { PrepareOptions } from '../translation/translate-document.js';
import { LanguageDetector } from '../detection/detect-language.js';
import { Tokenizer } from '../tokens.js';

export interface WorkerOptions {
  readonly db: Db;
  readonly dialect: JobDialect;
  readonly engines: EngineRegistry;
  /** The process's translation memory (memory/translation-memory.ts), shared with its requests. */
  readonly memory: TranslationMemory;
  /** Where and within which limits documents are read (the process's DocumentProcessing); without it, inline within the default limits. */
  readonly documents?: PrepareOptions;
  /** The process's language detector (services.ts); without one the worker makes its own (tests). */
  readonly detector?: LanguageDetector;
  /** The process's tokenizer (services.ts); without one the worker makes its own (tests). */
  readonly tokenizer?: Tokenizer;
  readonly logger: Logger;
  readonly concurrency: number;
  readonly leaseMs: number;
  readonly retentionMs: number;
  /** Translation-memory entries unused this long are deleted; default: never. */
  readonly memoryRetentionMs?: number;
  readonly clock?: () => number;
  /** How long an idle worker waits for a nudge before looking anyway. */
  readonly pollIntervalMs?: number;
  /** Base of the retry backoff: attempt n waits about base × 2^(n-1), with jitter. */
  readonly retryBaseMs?: number;
}

interface RunningJob {
  readonly controller: AbortController;
  done: Promise<void>;
}

const DEFAULT_POLL_MS = 2_000;
const DEFAULT_RETRY_BASE_MS = 2_000;
const MAINTENANCE_EVERY_MS = 30_000;

export class JobWorker extends EventEmitter {
  readonly workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly running = new Map<string, RunningJob>();
  private readonly clock: () => number;
  /** What jobs are read and translated with; a detector or tokenizer not given is the worker's own. */
  private readonly parts: JobParts;
  private stopping = false;
  private started = false;
  /** Claims jobs into free slots when nudged (db/claim-loop.ts). */
  private readonly claims: ClaimLoop<JobRow>;
  private pollTimer: NodeJS.Timeout | undefined;
  private maintenanceTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => Promise<void>) | undefined;
  /** Completions that finish together share a commit. */
  private readonly completions: TransactionBatcher<Completion, boolean>;

  constructor(private readonly options: WorkerOptions) {
    super();
    this.clock = options.clock ?? Date.now;
    this.parts = { documents: options.documents ?? {}, detector: options.detector ?? new LanguageDetector(), tokenizer: options.tokenizer ?? new Tokenizer() };
    this.completions = jobCompletions(options.db);
    this.claims = new ClaimLoop<JobRow>({
      free: () => this.options.concurrency - this.running.size,
      claim: (limit) => this.options.dialect.claimBatch(this.options.db, this.workerId, this.options.leaseMs, this.clock(), limit),
      begin: (job) => this.begin(job),
      stopping: () => this.stopping,
      failed: (error) => this.options.logger.error({ err: error }, 'claiming a job failed; will retry on the next poll'),
    });
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.unsubscribe = await this.options.dialect.subscribe(() => this.nudge());
    // Deliberately not unref'd: a worker keeps its process alive until stop().
    this.pollTimer = setInterval(() => this.nudge(), this.options.pollIntervalMs ?? DEFAULT_POLL_MS);
    void this.maintain();
    this.nudge();
  }

  /** Look for work now. */
  nudge(): void {
    this.claims.nudge();
  }

  private begin(job: JobRow): void {
    const controller = new AbortController();
    const entry: RunningJob = { controller, done: Promise.resolve() };
    entry.done = this.execute(job, entry).finally(() => {
      this.running.delete(job.id);
      this.nudge();
    });
    this.running.set(job.id, entry);
  }

  private async execute(job: JobRow, entry: RunningJob): Promise<void> {
    const { db, logger, leaseMs } = this.options;
    const log = logger.child({ jobId: job.id, attempt: job.attempts });
    this.emit('job:start', job.id);
    const heartbeat = setInterval(() => {
      void this.renew(job.id, entry).catch((error) => log.warn({ err: error }, 'lease renewal failed'));
    }, Math.max(1_000, Math.floor(leaseMs / 3)));
    heartbeat.unref();
    try {
      let outcome;
      const startedAt = performance.now();
      try {
        outcome = await runJob(
          job,
          this.options.engines,
          entry.controller.signal,
          this.parts,
          { database: { db }, memory: this.options.memory, clock: this.clock },
          () => isCancelRequested(db, job.id),
        );
      } catch (error) {
        if (entry.controller.signal.aborted) return; // released or lease lost: someone else finishes it
        log.error({ err: error }, 'job failed unexpectedly');
        outcome = { kind: 'failed', error: INTERNAL_FAILURE } as const;
      }
      if (entry.controller.signal.aborted) return;
      jobDuration.observe({ outcome: outcome.kind === 'retry' && job.attempts >= job.max_attempts ? 'failed' : outcome.kind }, secondsSince(startedAt));
      const now = this.clock();
      if (outcome.kind === 'completed') {
        // Shares its commit with the jobs completing at the same moment (group commit).
        const done = await this.completions.add({
          job,
          workerId: this.workerId,
          translations: outcome.translations,
          usage: outcome.usage,
          memory: outcome.memory,
          now,
        });
        if (done) {
          const { calls, cachedInputTokens, usage, memory } = outcome;
          log.info({ modelCalls: calls, ...usage, cachedInputTokens, cachedSegments: memory.cachedSegments }, 'job completed');
          this.emit('job:complete', job.id);
        }
        else log.warn('job was no longer ours at completion; its result was dropped and nothing charged');
      } else if (outcome.kind === 'canceled') {
        const done = await recordCanceled(db, { jobId: job.id, workerId: this.workerId, usage: outcome.usage, now });
        if (done) {
          log.info({ ...outcome.usage }, 'job canceled by its owner before its next model call');
          this.emit('job:cancel', job.id);
        }
      } else if (outcome.kind === 'retry' && job.attempts < job.max_attempts) {
        const runAt = now + this.backoff(job.attempts);
        await returnJobToQueue(db, { jobId: job.id, workerId: this.workerId, runAt, refundAttempt: false, now });
        log.warn({ reason: outcome.error, runAt }, 'job will be retried');
        this.emit('job:retry', job.id);
      } else {
        await failJob(db, { jobId: job.id, workerId: this.workerId, error: outcome.error, now });
        log.warn({ reason: outcome.error }, 'job failed');
        this.emit('job:fail', job.id);
      }
    } catch (error) {
      // The database failed while recording the outcome; the lease will lapse and the job run again.
      log.error({ err: error }, 'recording a job outcome failed');
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async renew(jobId: string, entry: RunningJob): Promise<void> {
    const stillOurs = await renewLease(this.options.db, jobId, this.workerId, this.options.leaseMs, this.clock());
    if (!stillOurs) entry.controller.abort(new Error('lease lost'));
  }

  private backoff(attempt: number): number {
    const base = this.options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS;
    const exponential = base * 2 ** (attempt - 1);
    return Math.round(exponential / 2 + Math.random() * (exponential / 2));
  }

  /** Lease recovery, retention, reservation and translation-memory clean-up, at a jittered interval. */
  private async maintain(): Promise<void> {
    if (this.stopping) return;
    const { db, logger, retentionMs } = this.options;
    try {
      const now = this.clock();
      const { requeued, failed, canceled } = await recoverLapsedLeases(db, now);
      if (canceled > 0) logger.warn({ canceled }, 'jobs whose owner canceled them while their worker stopped answering are canceled');
      if (requeued > 0) {
        logger.warn({ requeued }, 'jobs whose worker stopped answering went back to the queue');
        await this.options.dialect.notify(db);
      }
      if (failed > 0) logger.warn({ failed }, 'jobs interrupted too often were failed');
      const deleted = await deleteExpiredJobs(db, retentionMs, now);
      if (deleted > 0) logger.info({ deleted }, 'finished jobs past retention deleted');
      await deleteExpiredReservations(db, now);
      await pruneQueueCounts(db);
      if (this.options.memoryRetentionMs !== undefined) {
        const forgotten = await this.options.memory.expire(this.options.memoryRetentionMs, now);
        if (forgotten > 0) logger.info({ forgotten }, 'translation-memory entries past TRANSLATION_MEMORY_DAYS deleted');
      }
    } catch (error) {
      logger.error({ err: error }, 'queue maintenance failed');
    }
    const every = Math.min(MAINTENANCE_EVERY_MS, this.options.leaseMs / 2);
    this.maintenanceTimer = setTimeout(() => void this.maintain(), every * (0.5 + Math.random()));
    this.maintenanceTimer.unref();
  }

  /**
   * Stops claiming, waits up to `graceMs` for running jobs, then aborts the rest and
   * returns them to `pending` with their attempt refunded.
   */
  async stop(graceMs: number): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    // A detector or tokenizer the worker made for itself (tests) is its own to close.
    if (!this.options.detector) this.parts.detector.close();
    if (!this.options.tokenizer) this.parts.tokenizer.close();
    clearInterval(this.pollTimer);
    clearTimeout(this.maintenanceTimer);
    await this.unsubscribe?.();
    const all = () => Promise.all([...this.running.values()].map((r) => r.done));
    const graceOver = new AbortController();
    const finished = await Promise.race([all().then(() => true), delay(graceMs, false, { signal: graceOver.signal })]);
    graceOver.abort();
    if (finished) return;
    const now = this.clock();
    for (const [jobId, entry] of this.running) {
      entry.controller.abort(new Error('worker shutting down'));
      try {
        await returnJobToQueue(this.options.db, { jobId, workerId: this.workerId, runAt: now, refundAttempt: true, now });
        this.emit('job:release', jobId);
      } catch (error) {
        this.options.logger.error({ err: error, jobId }, 'could not release a job at shutdown; its lease will return it');
      }
    }
    await all();
    await this.options.dialect.notify(this.options.db).catch(() => {});
  }
}
