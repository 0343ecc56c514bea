/**
 * PostgreSQL LISTEN on a dedicated connection that reconnects when it drops: how the job
 * queue wakes its workers (jobs/dialects/postgres.ts) and how every process learns that
 * a key or a user changed, or memory was deleted (cache/change-watch.ts).
 */
import type pg from 'pg';
import type { Logger } from 'pino';
import { pgModule } from './pg-module.js';

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 5_000;
const CLOSE_WAIT_MS = 2_000;

export interface NotificationListenerOptions {
  /** The database URL: LISTEN needs its own long-lived connection outside the pool. */
  readonly url: string;
  readonly channel: string;
  /** What the notifications are, for log lines ("job notifications"). */
  readonly what: string;
  /** What covers for them while the connection is down, for log lines ("workers still poll"). */
  readonly meanwhile: string;
  readonly logger?: Logger;
  /**
   * false: the connection never keeps the process alive by itself (a watcher that lives as
   * long as something else, and must not hang a process that forgot to close it).
   */
  readonly keepsProcessAlive?: boolean;
  /**
   * Asks the connection `select 1` this often; `listening` is false while no answer came
   * for two periods, and after ten the connection is replaced. A connection that died
   * without a word (a half-open TCP connection, a frozen server) is otherwise trusted
   * until TCP keepalive gives up, minutes later. Unset: no heartbeat.
   */
  readonly heartbeatMs?: number;
}

/**
 * One LISTEN connection for one channel, shared by its subscribers, opened with the first
 * and closed with the last. Errors never escape: the connection is replaced with backoff,
 * and subscribers are called after every (re)connect too, since a notification may have
 * been missed while it was down. `listening` says whether notifications arrive now.
 */
export class NotificationListener {
  private readonly subscribers = new Set<() => void>();
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private closed = true;
  private heartbeat: NodeJS.Timeout | undefined;
  private beating = false;
  private answeredAt = 0;

  constructor(private readonly options: NotificationListenerOptions) {}

  /** Connected and listening (and answering, with a heartbeat): a notification sent now reaches the subscribers. */
  get listening(): boolean {
    if (this.client === undefined) return false;
    const { heartbeatMs } = this.options;
    return heartbeatMs === undefined || performance.now() - this.answeredAt < 2 * heartbeatMs;
  }

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
    const client = new (pgModule().Client)({
      connectionString: this.options.url,
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
      // Names the connection in pg_stat_activity, for operators (and tests) to find it.
      application_name: `translate-service LISTEN ${this.options.channel}`,
    });
    // Registered before connect: an 'error' event without a listener would crash the process.
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, undefined));
    client.on('notification', () => this.nudgeAll());
    try {
      await client.connect();
      await client.query(`listen ${this.options.channel}`);
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
    this.answeredAt = performance.now();
    if (this.options.heartbeatMs !== undefined) {
      clearInterval(this.heartbeat);
      this.heartbeat = setInterval(() => this.beat(client), this.options.heartbeatMs).unref();
    }
    // pg keeps its socket at `connection.stream` (pg 8); unref'd, it no longer holds the loop open.
    if (this.options.keepsProcessAlive === false) (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
    if (this.failures > 0) this.options.logger?.info(`${this.options.what} reconnected`);
    this.failures = 0;
    // What was notified while we were not listening reached nobody.
    this.nudgeAll();
  }

  private beat(client: pg.Client): void {
    if (this.client !== client) return;
    if (performance.now() - this.answeredAt > 10 * this.options.heartbeatMs!) {
      this.lost(client, new Error('the LISTEN connection stopped answering'));
      return;
    }
    // One question at a time: a silent connection does not pile them up.
    if (this.beating) return;
    this.beating = true;
    client.query('select 1').then(
      () => {
        this.beating = false;
        if (this.client === client) this.answeredAt = performance.now();
      },
      (error: Error) => {
        this.beating = false;
        this.lost(client, error);
      },
    );
  }

  private lost(client: pg.Client, error: Error | undefined): void {
    if (this.client !== client) return;
    this.client = undefined;
    clearInterval(this.heartbeat);
    this.beating = false;
    client.removeAllListeners('end');
    void client.end().catch(() => {});
    if (!this.closed) this.scheduleReconnect(error ?? new Error('the LISTEN connection ended'));
  }

  private scheduleReconnect(error: unknown): void {
    if (this.closed || this.reconnectTimer) return;
    this.failures += 1;
    const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** (this.failures - 1));
    const { logger, what, meanwhile } = this.options;
    const log = this.failures === 1 ? logger?.warn.bind(logger) : logger?.debug.bind(logger);
    log?.({ err: error, retryInMs: delay }, `${what} lost their connection; reconnecting (${meanwhile})`);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (!this.closed) void this.connect();
    }, delay);
    this.reconnectTimer.unref();
  }

  private async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    await this.connecting?.catch(() => {});
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners('end');
      // A connection that stopped answering may never acknowledge the goodbye: wait a little only.
      await Promise.race([client.end().catch(() => {}), new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref())]);
    }
  }
}
