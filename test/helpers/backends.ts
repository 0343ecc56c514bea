/**
 * The backends a test suite runs against: TEST_DATABASES (default `sqlite,postgres`,
 * so `npm test` covers both deployments). Each backend gets a fresh, isolated database per test app: a temporary
 * SQLite file, or a `CREATE DATABASE t_<random>` on the server at TEST_POSTGRES_URL
 * (default postgres://postgres@127.0.0.1:5432/test), dropped afterwards.
 *
 * A backend that was asked for but cannot be reached is skipped with a visible reason —
 * unless CI=true, where it fails: CI must never pass by testing nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import pg from 'pg';

export type Backend = 'sqlite' | 'postgres';

export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const IN_CI = process.env.CI === 'true' || process.env.CI === '1';

export function testBackends(): Backend[] {
  const raw = process.env.TEST_DATABASES ?? 'sqlite,postgres';
  return raw
    .split(',')
    .map((name) => name.trim())
    .filter((name): name is Backend => name === 'sqlite' || name === 'postgres');
}

/**
 * The rate-limit store a test app on `backend` uses: each backend is tested in its own
 * deployment — SQLite with the in-memory store (embedded), PostgreSQL with Redis
 * (scaled out). TEST_RATE_LIMIT_STORE=redis|memory overrides that for every app.
 */
export function testRateLimitEnv(backend: Backend): Record<string, string> {
  const store = process.env.TEST_RATE_LIMIT_STORE ?? (backend === 'postgres' ? 'redis' : 'memory');
  return store === 'redis' ? { RATE_LIMIT_STORE: 'redis', REDIS_URL: TEST_REDIS_URL } : { RATE_LIMIT_STORE: store };
}

/** What a backend's tests need running: PostgreSQL comes with Redis (see testRateLimitEnv). */
export function servicesFor(backend: Backend): { backend: Backend; redis: boolean } {
  return { backend, redis: backend === 'postgres' || process.env.TEST_RATE_LIMIT_STORE === 'redis' };
}

export interface TestDatabase {
  /** The DATABASE_URL for this isolated database. */
  readonly url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(backend: Backend): Promise<TestDatabase> {
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'translate-test-'));
    return {
      url: `sqlite:${join(dir, 'test.db')}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `t_${randomBytes(6).toString('hex')}`;
  await withAdminClient((client) => client.query(`create database ${name}`));
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // FORCE ends connections a failed test left open, so the database never lingers.
    drop: () => withAdminClient((client) => client.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}

async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 3_000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

const probes = new Map<string, Promise<string | undefined>>();

/** Why `backend` cannot be used here, or undefined when it can. Probed once per process. */
export function backendUnavailableReason(backend: Backend): Promise<string | undefined> {
  if (backend === 'sqlite') return Promise.resolve(undefined);
  return probe('postgres', () => withAdminClient((client) => client.query('select 1')), `PostgreSQL at ${redact(TEST_POSTGRES_URL)}`);
}

/** Why Redis (TEST_REDIS_URL) cannot be used here, or undefined when it can. */
export function redisUnavailableReason(): Promise<string | undefined> {
  return probe('redis', () => pingRedis(TEST_REDIS_URL), `Redis at ${redact(TEST_REDIS_URL)}`);
}

/**
 * A service that is absent refuses at once; one that is only slow to answer (a loaded
 * machine, another test file's processes holding the server busy) times out, and is asked
 * again a few times before it counts as unreachable.
 */
async function patiently(attempt: () => Promise<unknown>, tries = 4): Promise<unknown> {
  for (let left = tries - 1; ; left--) {
    try {
      return await attempt();
    } catch (error) {
      const slow = error instanceof Error && /time(d)? ?out/i.test(error.message);
      if (!slow || left === 0) throw error;
    }
  }
}

function probe(key: string, attempt: () => Promise<unknown>, what: string): Promise<string | undefined> {
  let result = probes.get(key);
  if (!result) {
    result = patiently(attempt).then(
      () => undefined,
      (error: unknown) => `${what} is not reachable (${error instanceof Error ? error.message : String(error)})`,
    );
    probes.set(key, result);
  }
  return result;
}

/**
 * For `describe(name, { skip: await skipUnless(...) }, …)`: a skip reason when a needed
 * service is missing (also printed, so it is seen), undefined when all are there. Under
 * CI=true a missing service throws instead, failing the file.
 */
export async function skipUnless(needs: { backend?: Backend; redis?: boolean }): Promise<string | undefined> {
  const reasons = [
    needs.backend ? await backendUnavailableReason(needs.backend) : undefined,
    needs.redis ? await redisUnavailableReason() : undefined,
  ].filter((r): r is string => r !== undefined);
  if (reasons.length === 0) return undefined;
  const reason = `SKIPPED: ${reasons.join('; ')}`;
  if (IN_CI) throw new Error(`${reasons.join('; ')} — and CI=true, so this is a failure, not a skip`);
  console.warn(`\n*** ${reason} ***\n`);
  return reason;
}

/** Inside a test: true when the services are there; otherwise skips `t` visibly (or fails under CI). */
export async function requireServices(t: TestContext, needs: { backend?: Backend; redis?: boolean }): Promise<boolean> {
  const reason = await skipUnless(needs);
  if (reason === undefined) return true;
  t.skip(reason);
  return false;
}

/** A PING over a raw socket, so the probe does not depend on the Redis client's retry logic. */
async function pingRedis(url: string): Promise<void> {
  const { createConnection } = await import('node:net');
  const parsed = new URL(url);
  await new Promise<void>((resolve, reject) => {
    const socket = createConnection({ host: parsed.hostname, port: Number(parsed.port || 6379) });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('timed out'));
    }, 2_000);
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.once('connect', () => socket.write(parsed.password ? `AUTH ${decodeURIComponent(parsed.password)}\r\nPING\r\n` : 'PING\r\n'));
    socket.on('data', (data) => {
      if (!data.toString().includes('PONG')) return;
      clearTimeout(timer);
      socket.end();
      resolve();
    });
  });
}

function redact(url: string): string {
  return url.replace(/:[^:@/]*@/, ':***@');
}
