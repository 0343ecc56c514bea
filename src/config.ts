/**
 * Configuration from environment variables (and `.env`), parsed once into a frozen,
 * typed object. This is the only module that reads `process.env`. A bad value stops
 * start-up with a message that names the variable.
 */
import { resolve } from 'node:path';
import { DEFAULT_DOCUMENT_LIMITS, type DocumentLimits } from './formats/format.js';

const SECOND = 1000;
const DAY = 24 * 60 * 60 * SECOND;

export const TIERS = ['free', 'starter', 'growth', 'scale', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (TIERS as readonly string[]).includes(value);
}

export type DatabaseConfig =
  | { readonly kind: 'sqlite'; readonly path: string; readonly url: string }
  | { readonly kind: 'postgres'; readonly url: string };

export type RateLimitStoreKind = 'memory' | 'redis' | 'none';

export type OpenAIResponseFormat = 'json_schema' | 'json_object' | 'none';

export interface Config {
  readonly host: string;
  readonly port: number;
  readonly database: DatabaseConfig;
  readonly redisUrl: string | undefined;
  readonly rateLimitStore: RateLimitStoreKind;
  /** Engine spec behind each public model name: `pseudo`, `apertium`, `openai:<model>`, `anthropic:<model>`. */
  readonly models: { readonly standard: string; readonly advanced: string };
  readonly openai: {
    readonly apiKey: string | undefined;
    readonly baseUrl: string | undefined;
    /** How the answer's JSON shape is enforced on the OpenAI-compatible server (docs/models.md). */
    readonly responseFormat: OpenAIResponseFormat;
  };
  readonly anthropic: { readonly apiKey: string | undefined; readonly baseUrl: string | undefined };
  /** Monthly token grant per tier; null = unlimited (enterprise). */
  readonly monthlyTokens: Readonly<Record<Tier, number | null>>;
  /** Per-call budget handed to the chunk planner. */
  readonly maxInputTokensPerCall: number;
  readonly maxOutputTokensPerCall: number;
  /** Output tokens one model call is planned to write, sized for latency (docs/decisions/0012). */
  readonly callOutputBudgetTokens: number;
  /** Per model call: timeout and how many calls one process makes at once per provider. */
  readonly engineTimeoutMs: number;
  readonly engineConcurrency: number;
  /** An Apertium pipeline with nothing to do this long is stopped; 0: never (APERTIUM_IDLE_SECONDS). */
  readonly apertiumIdleMs: number;
  readonly workerConcurrency: number;
  readonly jobLeaseMs: number;
  readonly shutdownGraceMs: number;
  readonly jobRetentionMs: number;
  /** Translation-memory entries unused this long are deleted (TRANSLATION_MEMORY_DAYS). */
  readonly translationMemoryMs: number;
  readonly logLevel: string;
  /** How much structure one document may carry before it is refused (422 document_too_complex). */
  readonly documentLimits: DocumentLimits;
  /** One step of a document's processing (detect + extract, or one target's render) in a worker, at most. */
  readonly documentTimeLimitMs: number;
  /** Heap of one document worker thread; a document that needs more is refused. */
  readonly documentMemoryLimitMb: number;
  /** Nice steps each document worker thread runs below the main thread (Linux); 0: none. */
  readonly documentWorkerNiceness: number;
  /** Time a client has to send its request headers, and its whole request (headers and body). */
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  /** The bearer token GET /metrics asks for; undefined: /metrics is not served (404). */
  readonly metricsToken: string | undefined;
  /** Webhook endpoints and their deliveries (docs/webhooks.md). */
  readonly webhooks: WebhookConfig;
}

export interface WebhookConfig {
  /** WEBHOOK_ALLOW_PRIVATE: plain http and loopback/private/link-local addresses allowed (tests, private networks). */
  readonly allowPrivate: boolean;
  /** One attempt, connect to answer, at most. */
  readonly timeoutMs: number;
  /** The wait before retry n is about base × 2^(n-1), at most maxIntervalMs, ±25 % jitter. */
  readonly retryBaseMs: number;
  readonly retryMaxIntervalMs: number;
  /** Attempts in all, the first included; then the delivery is `failed`. */
  readonly maxAttempts: number;
  /** Endpoints one user may have. */
  readonly maxPerUser: number;
  /** Deliveries one worker process sends at once. */
  readonly concurrency: number;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };

  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
    const value = Number(raw);
    if (value < min || value > max) {
      throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
    }
    return value;
  };

  const oneOf = <T extends string>(name: string, fallback: T, allowed: readonly T[]): T => {
    const raw = read(name) ?? fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
    }
    return raw as T;
  };

  const url = (name: string): string | undefined => {
    const raw = read(name);
    if (raw === undefined) return undefined;
    try {
      new URL(raw);
    } catch {
      throw new ConfigError(`${name} must be a URL, got "${raw}"`);
    }
    return raw;
  };

  const modelSpec = (name: string): string => {
    const raw = read(name) ?? 'pseudo';
    if (raw !== 'pseudo' && raw !== 'apertium' && !/^(openai|anthropic):\S+$/.test(raw)) {
      throw new ConfigError(`${name} must be pseudo, apertium, openai:<model> or anthropic:<model>, got "${raw}"`);
    }
    return raw;
  };

  const database = parseDatabaseUrl(read('DATABASE_URL') ?? 'sqlite:./data/translate.db');
  const redisUrl = url('REDIS_URL');
  const rateLimitStore = oneOf<RateLimitStoreKind>('RATE_LIMIT_STORE', 'memory', ['memory', 'redis', 'none']);
  if (rateLimitStore === 'redis' && redisUrl === undefined) {
    throw new ConfigError('RATE_LIMIT_STORE=redis needs REDIS_URL');
  }
  const models = { standard: modelSpec('MODEL_STANDARD'), advanced: modelSpec('MODEL_ADVANCED') };
  const openai = {
    apiKey: read('OPENAI_API_KEY'),
    baseUrl: url('OPENAI_BASE_URL'),
    responseFormat: oneOf<OpenAIResponseFormat>('OPENAI_RESPONSE_FORMAT', 'json_schema', [
      'json_schema',
      'json_object',
      'none',
    ]),
  };
  const anthropic = { apiKey: read('ANTHROPIC_API_KEY'), baseUrl: url('ANTHROPIC_BASE_URL') };
  for (const [variable, spec] of [['MODEL_STANDARD', models.standard], ['MODEL_ADVANCED', models.advanced]] as const) {
    if (spec.startsWith('openai:') && !openai.apiKey && !openai.baseUrl) {
      throw new ConfigError(`${variable}=${spec} needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local server)`);
    }
    if (spec.startsWith('anthropic:') && !anthropic.apiKey) {
      throw new ConfigError(`${variable}=${spec} needs ANTHROPIC_API_KEY`);
    }
  }

  const MAX_GRANT = Number.MAX_SAFE_INTEGER;
  const config: Config = {
    host: read('HOST') ?? '127.0.0.1',
    port: integer('PORT', 8080, 0, 65535),
    database,
    redisUrl,
    rateLimitStore,
    models,
    openai,
    anthropic,
    monthlyTokens: {
      free: integer('FREE_TIER_MONTHLY_TOKENS', 100_000, 0, MAX_GRANT),
      starter: integer('STARTER_MONTHLY_TOKENS', 1_000_000, 0, MAX_GRANT),
      growth: integer('GROWTH_MONTHLY_TOKENS', 5_000_000, 0, MAX_GRANT),
      scale: integer('SCALE_MONTHLY_TOKENS', 20_000_000, 0, MAX_GRANT),
      enterprise: null,
    },
    maxInputTokensPerCall: integer('MAX_INPUT_TOKENS_PER_CALL', 6_000, 50, 1_000_000),
    maxOutputTokensPerCall: integer('MAX_OUTPUT_TOKENS_PER_CALL', 16_384, 256, 1_000_000),
    callOutputBudgetTokens: integer('CALL_OUTPUT_BUDGET_TOKENS', 1_500, 100, 1_000_000),
    engineTimeoutMs: integer('ENGINE_TIMEOUT_SECONDS', 120, 1, 3600) * SECOND,
    engineConcurrency: integer('ENGINE_CONCURRENCY', 8, 1, 1000),
    apertiumIdleMs: integer('APERTIUM_IDLE_SECONDS', 300, 0, 86_400) * SECOND,
    // A worker waits on the database for each claim and completion; PostgreSQL answers many
    // such waits at once, SQLite's one writer does not (bench/queue/throughput.ts, decision 0036).
    workerConcurrency: integer('WORKER_CONCURRENCY', database.kind === 'postgres' ? 16 : 4, 1, 1000),
    jobLeaseMs: integer('JOB_LEASE_SECONDS', 60, 3, 86_400) * SECOND,
    shutdownGraceMs: integer('SHUTDOWN_GRACE_SECONDS', 25, 0, 3600) * SECOND,
    jobRetentionMs: integer('JOB_RETENTION_DAYS', 30, 1, 36_500) * DAY,
    translationMemoryMs: integer('TRANSLATION_MEMORY_DAYS', 180, 1, 36_500) * DAY,
    logLevel: oneOf('LOG_LEVEL', 'info', LOG_LEVELS),
    documentLimits: {
      maxNestingDepth: integer('MAX_NESTING_DEPTH', DEFAULT_DOCUMENT_LIMITS.maxNestingDepth, 8, 100_000),
      maxPlaceholderDepth: integer('MAX_PLACEHOLDER_DEPTH', DEFAULT_DOCUMENT_LIMITS.maxPlaceholderDepth, 1, 10_000),
      maxSegments: integer('MAX_SEGMENTS', DEFAULT_DOCUMENT_LIMITS.maxSegments, 1, 10_000_000),
    },
    documentTimeLimitMs: integer('DOCUMENT_TIME_LIMIT_MS', 3_000, 100, 600_000),
    documentMemoryLimitMb: integer('DOCUMENT_MEMORY_LIMIT_MB', 256, 64, 16_384),
    documentWorkerNiceness: integer('DOCUMENT_WORKER_NICENESS', 10, 0, 19),
    headersTimeoutMs: integer('HEADERS_TIMEOUT_SECONDS', 10, 1, 3600) * SECOND,
    requestTimeoutMs: integer('REQUEST_TIMEOUT_SECONDS', 30, 1, 3600) * SECOND,
    metricsToken: metricsToken(read('METRICS_TOKEN')),
    webhooks: {
      allowPrivate: oneOf('WEBHOOK_ALLOW_PRIVATE', 'false', ['true', 'false']) === 'true',
      timeoutMs: integer('WEBHOOK_TIMEOUT_SECONDS', 10, 1, 60) * SECOND,
      retryBaseMs: integer('WEBHOOK_RETRY_BASE_SECONDS', 5, 1, 3600) * SECOND,
      retryMaxIntervalMs: integer('WEBHOOK_RETRY_MAX_INTERVAL_SECONDS', 4 * 3600, 1, 7 * 24 * 3600) * SECOND,
      maxAttempts: integer('WEBHOOK_MAX_ATTEMPTS', 18, 1, 100),
      maxPerUser: integer('WEBHOOK_MAX_PER_USER', 20, 1, 1000),
      concurrency: integer('WEBHOOK_CONCURRENCY', 8, 1, 256),
    },
  };
  if (config.headersTimeoutMs > config.requestTimeoutMs) {
    throw new ConfigError(
      `HEADERS_TIMEOUT_SECONDS (${config.headersTimeoutMs / SECOND}) must not be longer than REQUEST_TIMEOUT_SECONDS (${config.requestTimeoutMs / SECOND})`,
    );
  }
  return deepFreeze(config);
}

/** A token a scraper can send in `Authorization: Bearer …`: printable ASCII without spaces, long enough not to guess. */
function metricsToken(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!/^[\x21-\x7E]{16,256}$/.test(raw)) {
    throw new ConfigError('METRICS_TOKEN must be 16 to 256 printable ASCII characters without spaces');
  }
  return raw;
}

export function parseDatabaseUrl(raw: string): DatabaseConfig {
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (path === '') throw new ConfigError('DATABASE_URL=sqlite:<path> needs a path');
    return { kind: 'sqlite', path: path === ':memory:' ? path : resolve(path), url: raw };
  }
  if (raw.startsWith('postgres://') || raw.startsWith('postgresql://')) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError(`DATABASE_URL is not a valid postgres:// URL`);
    }
    return { kind: 'postgres', url: raw };
  }
  throw new ConfigError(`DATABASE_URL must start with sqlite: or postgres://, got "${raw.replace(/:[^:@/]*@/, ':***@')}"`);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** What the client commands (`translate`, `sync`) need: where the API is and the key to call it with. */
export interface ClientConfig {
  /** The API's base URL as it names itself, `http://127.0.0.1:8080/v1` by default. */
  readonly apiUrl: string;
  readonly apiKey: string | undefined;
}

export const DEFAULT_API_URL = 'http://127.0.0.1:8080/v1';

/**
 * TRANSLATE_API_URL and TRANSLATE_API_KEY, overridden by the command's flags. Apart from
 * loadConfig so that a client never fails on the server's variables (a bad PORT is no
 * business of `sync`).
 */
export function loadClientConfig(flags: { apiUrl?: string; apiKey?: string }, env: Env = process.env): ClientConfig {
  const fromFlag = flags.apiUrl !== undefined;
  const apiUrl = flags.apiUrl ?? (env.TRANSLATE_API_URL?.trim() || DEFAULT_API_URL);
  let parsed: URL | undefined;
  try {
    parsed = new URL(apiUrl);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new ConfigError(`${fromFlag ? '--api-url' : 'TRANSLATE_API_URL'} must be an http(s) URL such as ${DEFAULT_API_URL}, got "${apiUrl}"`);
  }
  const apiKey = flags.apiKey ?? (env.TRANSLATE_API_KEY?.trim() || undefined);
  return { apiUrl, apiKey };
}
