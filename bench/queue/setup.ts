/** Shared by the queue benchmarks: a fresh database of either backend, and percentiles. */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createKey } from '../../src/accounts/keys.js';
import { parseDatabaseUrl } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { rebuildQueueCounts } from '../../src/jobs/queue-counts.js';
import { createLogger } from '../../src/logger.js';
import { createTestDatabase, type Backend } from '../../test/helpers/backends.js';

export const silent = createLogger('silent', new Writable({ write: (_c, _e, done) => done() }));

export interface BenchDatabase {
  readonly url: string;
  readonly database: Database;
  userId(): Promise<string>;
  drop(): Promise<void>;
}

export async function benchDatabase(backend: Backend): Promise<BenchDatabase> {
  const created = await createTestDatabase(backend);
  const database = openDatabase(parseDatabaseUrl(created.url));
  await migrateToLatest(database.db);
  return {
    url: created.url,
    database,
    userId: async () => (await createKey(database.db, { tier: 'enterprise', now: Date.now() })).userId,
    async drop() {
      await database.close();
      await created.drop();
    },
  };
}

/** Inserts `count` pending jobs in batches (rows as POST /jobs would write them). */
export async function insertPendingJobs(database: Database, userId: string | string[], count: number, content: string, start = Date.now()): Promise<void> {
  const users = Array.isArray(userId) ? userId : [userId];
  const request = JSON.stringify({ content, targets: ['fr', 'de'], model: 'standard' });
  for (let offset = 0; offset < count; offset += 1_000) {
    const rows = Array.from({ length: Math.min(1_000, count - offset) }, (_, i) => ({
      id: randomUUID(),
      user_id: users[(offset + i) % users.length]!,
      status: 'pending' as const,
      request,
      created_at: start + offset + i,
      updated_at: start + offset + i,
      completed_at: null,
      max_attempts: 3,
      run_at: start + offset + i,
      locked_by: null,
      lease_expires_at: null,
      result: null,
      model: 'standard',
      input_tokens: null,
      output_tokens: null,
      error: null,
    }));
    // SQLite allows 32,766 bound parameters: 1,000 rows × 16 columns fits.
    await database.db.insertInto('jobs').values(rows).execute();
  }
  // Bulk rows bypass insertJob, so the queue-position counts are rebuilt once.
  await rebuildQueueCounts(database.db);
}

export function percentiles(samples: number[]): { p50: number; p95: number; p99: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const round = (n: number) => Math.round(n * 100) / 100;
  return { p50: round(at(0.5)), p95: round(at(0.95)), p99: round(at(0.99)), max: round(sorted.at(-1)!) };
}

export function backendsFromArgs(): Backend[] {
  const arg = process.argv[2] ?? 'sqlite,postgres';
  return arg.split(',').filter((b): b is Backend => b === 'sqlite' || b === 'postgres');
}
