/**
 * Every metric the service exports, in a registry of its own (not prom-client's global
 * one, so two copies of the module or a library cannot collide with it). Process-wide on
 * purpose: a scrape sees the whole process, whichever app or worker did the work.
 * docs/metrics.md lists them with their labels.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const metricsRegistry = new Registry();

const PROCESS_PREFIX = 'translate_';

/**
 * prom-client's process metrics (CPU, memory, event-loop delay, collections), from the
 * moment a process serves GET /metrics; one that does not never starts them. Their
 * collection observes every garbage collection, the largest steady growth of the old
 * generation under load on Node 20 (docs/decisions/0047).
 */
export function collectProcessMetrics(): void {
  // The registry is the record of whether they run: it refuses a second registration.
  if (metricsRegistry.getSingleMetric(`${PROCESS_PREFIX}process_cpu_user_seconds_total`)) return;
  collectDefaultMetrics({ register: metricsRegistry, prefix: PROCESS_PREFIX });
}

/** Seconds: from a health check's millisecond to a long document's minutes. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const JOB_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900];

export const httpRequests = new Counter({
  name: 'translate_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpRequestDuration = new Histogram({
  name: 'translate_http_request_duration_seconds',
  help: 'Time from the request to its answer, by method, route pattern and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const modelCalls = new Counter({
  name: 'translate_model_calls_total',
  help: 'Engine calls (one chunk of a document: repairs and retries included), by engine and outcome (ok, failed).',
  labelNames: ['engine', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const modelCallDuration = new Histogram({
  name: 'translate_model_call_duration_seconds',
  help: 'Time an engine call took, by engine and outcome.',
  labelNames: ['engine', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const modelTokens = new Counter({
  name: 'translate_model_tokens_total',
  help: 'Tokens of successful engine calls, by engine and direction (input, output).',
  labelNames: ['engine', 'direction'] as const,
  registers: [metricsRegistry],
});

export const modelFailures = new Counter({
  name: 'translate_model_failures_total',
  help: 'Engine calls that failed, by engine and whether the failure is retryable.',
  labelNames: ['engine', 'retryable'] as const,
  registers: [metricsRegistry],
});

export const jobQueueDepth = new Gauge({
  name: 'translate_job_queue_depth',
  help: 'Jobs waiting (pending) or running (processing) in the shared queue, read from the database at scrape time.',
  labelNames: ['status'] as const,
  registers: [metricsRegistry],
});

export const jobDuration = new Histogram({
  name: 'translate_job_duration_seconds',
  help: 'Time one job run took in a worker of this process, by outcome (completed, retry, failed).',
  labelNames: ['outcome'] as const,
  buckets: JOB_BUCKETS,
  registers: [metricsRegistry],
});

export const rateLimitRejections = new Counter({
  name: 'translate_rate_limit_rejections_total',
  help: 'Requests answered 429 rate_limit_reached, by tier.',
  labelNames: ['tier'] as const,
  registers: [metricsRegistry],
});

export const rateLimitStoreFallbacks = new Counter({
  name: 'translate_rate_limit_store_fallbacks_total',
  help: 'Requests let through without a limit because the Redis rate-limit store failed.',
  registers: [metricsRegistry],
});

/** Seconds since `startedAt` (from performance.now()). */
export function secondsSince(startedAt: number): number {
  return (performance.now() - startedAt) / 1000;
}

export const webhookDeliveries = new Counter({
  name: 'translate_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome: sent (2xx), retried (failed, another attempt scheduled), failed (failed for good).',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const webhookDeliveryDuration = new Histogram({
  name: 'translate_webhook_delivery_duration_seconds',
  help: 'Time one webhook attempt took (resolve, connect, answer), by outcome (ok, failed).',
  labelNames: ['outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});
