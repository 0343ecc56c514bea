/**
 * The database schema as Kysely sees it. Times are epoch milliseconds (integers) so
 * ordering and lease arithmetic are the same on SQLite and PostgreSQL; they become
 * ISO 8601 strings only at the HTTP edge.
 */
import type { Generated } from 'kysely';

export interface UsersTable {
  id: string;
  tier: string;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string | null;
  /** sha256 of the key, hex. The key itself is never stored. */
  key_hash: string;
  /** The first characters of the key, to tell keys apart in `keys list`. */
  key_prefix: string;
  created_at: number;
  revoked_at: number | null;
}

/** One row per user and calendar month (UTC, `YYYY-MM`): reading this month's total is one lookup. */
export interface UsageMonthlyTable {
  user_id: string;
  period: string;
  input_tokens: number;
  output_tokens: number;
  tokens_used: number;
}

/**
 * Free-tier pre-check estimates held while work runs, so concurrent requests cannot
 * together overshoot the grant. A job's reservation lives until the job finishes; a
 * synchronous request's has an expiry in case its process dies mid-request.
 */
export interface TokenReservationsTable {
  id: string;
  user_id: string;
  tokens: number;
  job_id: string | null;
  expires_at: number | null;
  created_at: number;
}

export interface JobsTable {
  id: string;
  user_id: string;
  status: 'pending' | 'processing' | 'completed' | 'failed' | 'canceled';
  /** The request as JSON: content, targets, format, source, model. */
  request: string;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
  /** Attempts started; counted when a worker claims the job. */
  attempts: Generated<number>;
  max_attempts: number;
  /** A pending job is not claimed before this (retry backoff). */
  run_at: number;
  locked_by: string | null;
  lease_expires_at: number | null;
  /** Completed: the translations as JSON. */
  result: string | null;
  model: string;
  input_tokens: number | null;
  output_tokens: number | null;
  /** Failed: a human-readable message. */
  error: string | null;
  /** Completed: segment × target pairs served from translation memory (null before migration 003). */
  cached_segments: number | null;
  /** Completed with a glossary: required terms the answer still missed after its repair. */
  glossary_misses: number | null;
  /** Processing: when its owner asked to cancel it; the worker stops before its next model call. */
  cancel_requested_at: Generated<number | null>;
  /** Canceled: when it stopped. */
  canceled_at: Generated<number | null>;
}

/** A user's validated segment translations, by a sha256 of everything that shaped them (src/memory/key.ts). */
export interface TranslationMemoryTable {
  user_id: string;
  entry_key: string;
  translation: string;
  created_at: number;
  /** Refreshed on use (at most daily); rows unused for TRANSLATION_MEMORY_DAYS are deleted. */
  last_used_at: number;
}

export interface GlossariesTable {
  id: string;
  user_id: string;
  name: string;
  source: string;
  version: number;
  /** JSON: [{term, translations: {code: text}}]. */
  entries: string;
  /** JSON: [term]. */
  do_not_translate: string;
  entry_count: number;
  created_at: number;
  updated_at: number;
}

/** Live (pending or processing) jobs per creation-time bucket; see jobs/queue-counts.ts. */
export interface JobQueueCountsTable {
  /** 1: one-second buckets; 2: 1,000-second buckets. */
  level: number;
  bucket: number;
  /** Concurrent updates of one bucket spread over shards; a bucket's count is the sum. */
  shard: number;
  active: number;
}

/** The first answer to a request sent with an Idempotency-Key (src/idempotency/). */
export interface IdempotencyKeysTable {
  user_id: string;
  idempotency_key: string;
  /** sha256 of the route and the body. */
  fingerprint: string;
  /** The request holding the key while it runs. */
  owner: string;
  locked_until: number;
  /** Null while the first request runs. */
  status_code: number | null;
  content_type: string | null;
  response_body: string | null;
  created_at: number;
  expires_at: number;
}

/** A user's webhook endpoint (src/webhooks/README.md). */
export interface WebhooksTable {
  id: string;
  user_id: string;
  url: string;
  /** JSON array of event names. */
  events: string;
  /** `whsec_` + base64 of the signing key; needed in clear to sign, shown to its owner once. */
  secret: string;
  created_at: number;
}

/** One event for one endpoint, sent (and retried) by workers; its id is the `webhook-id`. */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  user_id: string;
  event_type: string;
  /** The job the event is about. */
  subject_id: string;
  status: 'pending' | 'sending' | 'succeeded' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: number;
  locked_by: string | null;
  lease_expires_at: number | null;
  /** The HTTP status of the last attempt's answer; null when it had none (timeout, refused address). */
  response_status: number | null;
  last_error: string | null;
  last_attempt_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface DatabaseSchema {
  users: UsersTable;
  api_keys: ApiKeysTable;
  usage_monthly: UsageMonthlyTable;
  token_reservations: TokenReservationsTable;
  jobs: JobsTable;
  job_queue_counts: JobQueueCountsTable;
  translation_memory: TranslationMemoryTable;
  glossaries: GlossariesTable;
  idempotency_keys: IdempotencyKeysTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
