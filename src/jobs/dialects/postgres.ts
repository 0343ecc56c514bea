/**
 * PostgreSQL: many workers in many processes claim from one table. A CTE picks the
 * oldest runnable pending job `FOR UPDATE SKIP LOCKED` (so concurrent claimers never
 * wait on, or double-claim, the same row) and the UPDATE counts the attempt in the same
 * statement (after graphile-worker's getJobs.ts). Wake-ups travel by LISTEN/NOTIFY on a
 * dedicated connection that reconnects when it drops; every reconnect nudges, since a
 * notification may have been missed while it was down.
 */
import pg from 'pg';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../../db/database.js';
import type { JobDialect, JobRow } from '../dialect.js';

export const JOBS_CHANNEL = 'translate_jobs';

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 5_000;

export interface PostgresJobDialectOptions {
  /** The database URL; LISTEN needs its own long-lived connection outside the pool. */
  readonly url: string;
  readonly logger?: Logger;
}

export function createPostgresJobDialect(options: PostgresJobDialectOptions): JobDialect {
  const listener = new NotificationListener(options.url, options.logger);
  const dialect: JobDialect = {
    async claim(db: Db, workerId: string, leaseMs: number, now: number): Promise<JobRow | undefined> {
      return (await dialect.claimBatch(db, workerId, leaseMs, now, 1))[0];
    },

    async claimBatch(db: Db, workerId: string, leaseMs: number, now: number, limit: number): Promise<JobRow[]> {
      const result = await sql<JobRow>`
        with next as (
          select id from jobs
          where status = 'pending' and run_at <= ${now}
          order by created_at, id
          limit ${limit}
          for update skip locked
        )
        update jobs
        set status = 'processing',
            attempts = jobs.attempts + 1,
            locked_by = ${workerId},
            lease_expires_at = ${now + leaseMs},
            updated_at = ${now}
        from next
        where jobs.id = next.id
        returning jobs.*
      `.execute(db);
      // UPDATE … RETURNING keeps no order: oldest first, as claimed.
      return result.rows.sort(oldestFirst);
    },

    subscribe(onNudge: () => void): Promise<() => Promise<void>> {
      return listener.add(onNudge);
    },

    async notify(db: Db): Promise<void> {
      await sql`select pg_notify(${JOBS_CHANNEL}, '')`.execute(db);
    },
  };
  return dialect;
}

function oldestFirst(a: JobRow, b: JobRow): number {
  return a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * One LISTEN connection per dialect, shared by its subscribers, opened with the first
 * and closed with the last. Errors never escape: the connection is replaced with
 * backoff, and the worker's fallback poll covers the gap.
 */
class NotificationListener {
  private readonly subscribers = new Set<() => void>();
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private closed = true;

  constructor(
    private readonly url: string,
    private readonly logger: Logger | undefined,
  ) {}

  async add(onNudge: () => void): Promise<() => Promise<void>> {
    this.subscribers.add(onNudge);
    if (this.closed) {
      this.closed = false;
      await this.connect();
    }
    return async () => {
      this.subscribers.delete(onNudge);
      if (this.subscribers.size === 0) await this.close();
    };
  }

  private nudgeAll(): void {
    for (const onNudge of this.subscribers) onNudge();
  }

  private connect(): Promise<void> {
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5_000, keepAlive: true });
    // Registered before connect: an 'error' event without a listener would crash the process.
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, undefined));
    client.on('notification', () => this.nudgeAll());
    try {
      await client.connect();
      await client.query(`listen ${JOBS_CHANNEL}`);
    } catch (error) {
      client.removeAllListeners('end');
      void client.end().catch(() => {});
      this.scheduleReconnect(error);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    if (this.failures > 0) this.logger?.info('job notifications reconnected');
    this.failures = 0;
    // Jobs enqueued while we were not listening sent notifications nobody heard.
    this.nudgeAll();
  }

  private lost(client: pg.Client, error: Error | undefined): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.removeAllListeners('end');
    void client.end().catch(() => {});
    if (!this.closed) this.scheduleReconnect(error ?? new Error('the LISTEN connection ended'));
  }

  private scheduleReconnect(error: unknown): void {
    if (this.closed || this.reconnectTimer) return;
    this.failures += 1;
    const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** (this.failures - 1));
    const log = this.failures === 1 ? this.logger?.warn.bind(this.logger) : this.logger?.debug.bind(this.logger);
    log?.({ err: error, retryInMs: delay }, 'job notifications lost their connection; reconnecting (workers still poll)');
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (!this.closed) void this.connect();
    }, delay);
    this.reconnectTimer.unref();
  }

  private async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    await this.connecting?.catch(() => {});
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
    }
  }
}
