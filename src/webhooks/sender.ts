/**
 * A worker process's delivery loop, beside the job loop: claim due deliveries while there
 * are free slots, send each (signed, to the pinned address, within the timeout), record
 * the outcome; with nothing due, wait for a nudge (a job finished in this process) or the
 * poll. A lease per attempt (the timeout plus a margin) brings back a delivery whose
 * sender was killed; stop() lets attempts in flight finish within the grace period and
 * releases the rest unspent.
 *
 * Emits `delivery:sent`, `delivery:retry`, `delivery:failed` (with the delivery id) so
 * tests follow along without sleeping.
 */
import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { WebhookConfig } from '../config.js';
import { ClaimLoop } from '../db/claim-loop.js';
import type { Db } from '../db/database.js';
import { secondsSince, webhookDeliveries, webhookDeliveryDuration } from '../metrics/metrics.js';
import { attemptDelivery } from './deliver.js';
import {
  claimDeliveries,
  deleteExpiredDeliveries,
  recordAttempt,
  recoverLapsedDeliveries,
  releaseDelivery,
  type ClaimedDelivery,
} from './deliveries.js';
import { retryDelayMs } from './schedule.js';
import { signDelivery } from './signing.js';
import type { Resolver } from './url-guard.js';

/** The `data` of an event about `subjectId`; undefined when the subject no longer exists. */
export type EventData = (eventType: string, subjectId: string) => Promise<object | undefined>;

export interface WebhookSenderOptions {
  readonly db: Db;
  readonly config: WebhookConfig;
  readonly eventData: EventData;
  readonly logger: Logger;
  readonly clock: () => number;
  /** Finished deliveries are deleted after this. */
  readonly retentionMs: number;
  /** How long an idle sender waits before looking anyway. */
  readonly pollIntervalMs?: number;
  /** Name resolution; default the system's (tests give their own). */
  readonly resolve?: Resolver;
  readonly random?: () => number;
}

const DEFAULT_POLL_MS = 1_000;
const MAINTENANCE_EVERY_MS = 30_000;
/** A lease outlasts an attempt by this much, so only a dead sender's lease lapses. */
const LEASE_MARGIN_MS = 5_000;

export class WebhookSender extends EventEmitter {
  readonly workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}:webhooks`;
  private readonly inFlight = new Map<string, Promise<void>>();
  private stopping = false;
  private started = false;
  /** Claims due deliveries into free slots when nudged (db/claim-loop.ts). */
  private readonly claims: ClaimLoop<ClaimedDelivery>;
  private pollTimer: NodeJS.Timeout | undefined;
  private maintenanceTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: WebhookSenderOptions) {
    super();
    const { db, config, clock } = options;
    this.claims = new ClaimLoop<ClaimedDelivery>({
      free: () => config.concurrency - this.inFlight.size,
      claim: (limit) => claimDeliveries(db, { workerId: this.workerId, leaseMs: this.leaseMs, now: clock(), limit }),
      begin: (delivery) => this.begin(delivery),
      stopping: () => this.stopping || !this.started,
      failed: (error) => this.options.logger.error({ err: error }, 'claiming webhook deliveries failed; will retry on the next poll'),
    });
  }

  private get leaseMs(): number {
    return this.options.config.timeoutMs + LEASE_MARGIN_MS;
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.pollTimer = setInterval(() => this.nudge(), this.options.pollIntervalMs ?? DEFAULT_POLL_MS);
    await this.maintain();
    this.nudge();
  }

  /** Look for due deliveries now. */
  nudge(): void {
    this.claims.nudge();
  }

  private begin(delivery: ClaimedDelivery): void {
    const done = this.send(delivery)
      .catch((error: unknown) => this.options.logger.error({ err: error, deliveryId: delivery.id }, 'recording a webhook attempt failed; its lease will bring it back'))
      .finally(() => {
        this.inFlight.delete(delivery.id);
        this.nudge();
      });
    this.inFlight.set(delivery.id, done);
  }

  private async send(delivery: ClaimedDelivery): Promise<void> {
    const { db, config, clock, logger } = this.options;
    const log = logger.child({ deliveryId: delivery.id, webhookId: delivery.webhook_id, event: delivery.event_type, attempt: delivery.attempts });
    const data = await this.options.eventData(delivery.event_type, delivery.subject_id);
    if (data === undefined) {
      // Counted only if this worker still held the delivery, as every other outcome below.
      if (await recordAttempt(db, { id: delivery.id, workerId: this.workerId, now: clock(), responseStatus: null, error: 'the job this event is about no longer exists' })) {
        webhookDeliveries.inc({ outcome: 'failed' });
        this.emit('delivery:failed', delivery.id);
      }
      return;
    }
    // Standard Webhooks' payload: the event's time is when it happened, not this attempt's.
    const body = JSON.stringify({ type: delivery.event_type, timestamp: new Date(Number(delivery.created_at)).toISOString(), data });
    const headers = signDelivery(delivery.secret, delivery.id, Math.floor(clock() / 1000), body);
    const startedAt = performance.now();
    const result = await attemptDelivery({
      url: delivery.url,
      headers: { ...headers },
      body,
      timeoutMs: config.timeoutMs,
      allowPrivate: config.allowPrivate,
      ...(this.options.resolve ? { resolve: this.options.resolve } : {}),
    });
    webhookDeliveryDuration.observe({ outcome: result.ok ? 'ok' : 'failed' }, secondsSince(startedAt));
    const now = clock();
    if (result.ok) {
      if (await recordAttempt(db, { id: delivery.id, workerId: this.workerId, now, responseStatus: result.status, error: null })) {
        webhookDeliveries.inc({ outcome: 'sent' });
        log.info({ status: result.status }, 'webhook delivered');
        this.emit('delivery:sent', delivery.id);
      }
      return;
    }
    const wait = retryDelayMs(config, delivery.attempts, this.options.random);
    const recorded = await recordAttempt(db, {
      id: delivery.id,
      workerId: this.workerId,
      now,
      responseStatus: result.status,
      error: result.error,
      ...(wait !== undefined ? { retryAt: now + wait } : {}),
    });
    if (!recorded) return;
    if (wait !== undefined) {
      webhookDeliveries.inc({ outcome: 'retried' });
      log.warn({ reason: result.error, retryInMs: wait }, 'webhook attempt failed; will retry');
      this.emit('delivery:retry', delivery.id);
    } else {
      webhookDeliveries.inc({ outcome: 'failed' });
      log.warn({ reason: result.error }, 'webhook delivery failed for good');
      this.emit('delivery:failed', delivery.id);
    }
  }

  /** Lapsed leases back to pending, old deliveries deleted, at a jittered interval. */
  private async maintain(): Promise<void> {
    if (this.stopping) return;
    const { db, clock, logger, retentionMs } = this.options;
    try {
      const recovered = await recoverLapsedDeliveries(db, clock());
      if (recovered > 0) logger.warn({ recovered }, 'webhook deliveries whose sender stopped answering are due again');
      await deleteExpiredDeliveries(db, retentionMs, clock());
    } catch (error) {
      logger.error({ err: error }, 'webhook delivery maintenance failed');
    }
    const every = Math.min(MAINTENANCE_EVERY_MS, this.leaseMs);
    this.maintenanceTimer = setTimeout(() => void this.maintain().then(() => this.nudge()), every * (0.5 + Math.random()));
    this.maintenanceTimer.unref();
  }

  /**
   * Stops claiming; attempts in flight get `graceMs` (each is bounded by the timeout
   * anyway), and any still running then are released unspent, for another sender.
   */
  async close(graceMs = 0): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    clearInterval(this.pollTimer);
    clearTimeout(this.maintenanceTimer);
    const graceOver = new AbortController();
    const finished = await Promise.race([Promise.all(this.inFlight.values()).then(() => true), delay(graceMs, false, { signal: graceOver.signal })]);
    graceOver.abort();
    if (finished) return;
    for (const id of this.inFlight.keys()) {
      await releaseDelivery(this.options.db, id, this.workerId, this.options.clock()).catch(() => {});
    }
  }
}
