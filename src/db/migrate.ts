/**
 * Schema migrations, bundled in code (no files to find at run time). Kysely's migrator
 * takes a lock on both dialects, so `serve` and `worker` may start at the same moment.
 */
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as initial from './migrations/001-initial.js';
import * as jobQueueCounts from './migrations/002-job-queue-counts.js';
import * as translationMemory from './migrations/003-translation-memory.js';
import * as glossaries from './migrations/004-glossaries.js';
import * as keyChangeNotifications from './migrations/005-key-change-notifications.js';
import * as memoryDeletionNotifications from './migrations/006-memory-deletion-notifications.js';
import * as idempotencyKeys from './migrations/007-idempotency-keys.js';
import * as jobCancelAndList from './migrations/008-job-cancel-and-list.js';
import * as webhooks from './migrations/009-webhooks.js';
import * as accountAndMemoryChanges from './migrations/010-account-and-memory-changes.js';

const MIGRATIONS: Record<string, Migration> = {
  '001-initial': initial,
  '002-job-queue-counts': jobQueueCounts,
  '003-translation-memory': translationMemory,
  '004-glossaries': glossaries,
  '005-key-change-notifications': keyChangeNotifications,
  '006-memory-deletion-notifications': memoryDeletionNotifications,
  '007-idempotency-keys': idempotencyKeys,
  '008-job-cancel-and-list': jobCancelAndList,
  '009-webhooks': webhooks,
  '010-account-and-memory-changes': accountAndMemoryChanges,
};

const provider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider, migrationTableName: 'schema_migrations', migrationLockTableName: 'schema_migrations_lock' });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
