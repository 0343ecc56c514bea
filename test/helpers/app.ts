/**
 * Builds the real app on a fresh database of the chosen backend, with the real
 * services (migrations, limiter, engines) — tests talk to it through `inject` or a
 * real port, never by reaching into internals.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Writable } from 'node:stream';
import { createKey } from '../../src/accounts/keys.js';
import { loadConfig, type Tier } from '../../src/config.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { EngineRegistry } from '../../src/engines/registry.js';
import { buildApp } from '../../src/http/app.js';
import { createLogger } from '../../src/logger.js';
import { createServices, type Services } from '../../src/services.js';
import { checkAnswers, recordAnswers, type OpenApiDocument, type RecordedAnswer } from './answer-check.js';
import { createTestDatabase, testRateLimitEnv, type Backend } from './backends.js';

export interface TestApp {
  readonly app: FastifyInstance;
  readonly services: Services;
  /** Every log line the app wrote, parsed. */
  readonly logs: Record<string, unknown>[];
  /** Every answer given on a /v1 route; checked against the OpenAPI document on close. */
  readonly answers: RecordedAnswer[];
  /** Creates a user with a key on `tier`; returns the bearer header value and ids. */
  key(tier: Tier, userId?: string): Promise<{ key: string; keyId: string; userId: string; auth: string }>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  readonly backend?: Backend;
  /** Extra environment, as the service would read it (e.g. RATE_LIMIT_STORE). */
  readonly env?: Record<string, string>;
  /** A settable clock; defaults to Date.now. */
  readonly clock?: () => number;
  /** Engines in place of the configured ones (a failing engine, a slow one). */
  readonly engines?: EngineRegistry;
  /** Documents longer than this go to the worker pool (benches: Infinity reads all inline). */
  readonly largeDocumentChars?: number;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const backend = options.backend ?? 'sqlite';
  const database = await createTestDatabase(backend);
  // Each backend runs with its deployment's rate-limit store unless a test says otherwise.
  const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'info', ...testRateLimitEnv(backend), ...options.env });
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) logs.push(JSON.parse(line));
      done();
    },
  });
  const logger = createLogger('info', sink);
  const services = await createServices(config, {
    logger,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.engines ? { engines: options.engines } : {}),
    ...(options.largeDocumentChars === undefined ? {} : { largeDocumentChars: options.largeDocumentChars }),
  });
  await migrateToLatest(services.database.db);
  const app = await buildApp(services);
  const answers = recordAnswers(app);
  await app.ready();
  return {
    app,
    services,
    logs,
    answers,
    async key(tier, userId) {
      const created = await createKey(services.database.db, { tier, now: services.clock(), ...(userId ? { userId } : {}) });
      return { key: created.key, keyId: created.keyId, userId: created.userId, auth: `Bearer ${created.key}` };
    },
    async close() {
      const problems = checkAnswers(app.swagger() as unknown as OpenApiDocument, answers);
      await app.close();
      await services.close();
      await database.drop();
      // Every answer the suite saw must be one the reference documents (docs/decisions/0020).
      if (problems.length > 0) throw new Error(`answers the OpenAPI document does not describe:\n${problems.join('\n')}`);
    },
  };
}

/** The parsed JSON body; fails loudly with the raw body when it is not JSON. */
export function json<T = any>(response: LightMyRequestResponse): T {
  try {
    return JSON.parse(response.body) as T;
  } catch {
    throw new Error(`expected JSON, got ${response.statusCode}: ${response.body.slice(0, 500)}`);
  }
}
