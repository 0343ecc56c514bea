/**
 * The backends a test suite runs against: TEST_DATABASES=sqlite,postgres (default
 * sqlite). Each backend gets a fresh, isolated database per test app.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type Backend = 'sqlite' | 'postgres';

export function testBackends(): Backend[] {
  const raw = process.env.TEST_DATABASES ?? 'sqlite';
  return raw
    .split(',')
    .map((name) => name.trim())
    .filter((name): name is Backend => name === 'sqlite' || name === 'postgres');
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
  throw new Error('the postgres test backend is not available yet');
}
