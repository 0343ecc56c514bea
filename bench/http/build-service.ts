/**
 * One build's service on a new database, as bench/http/compare-builds.ts and windows.ts
 * start it: `node DIR/dist/cli.js serve` with `pseudo`, the environment DIR's `npm start` gives it
 * and a metrics token for gcFigures; SQLite with limits off and an enterprise key, or
 * PostgreSQL + Redis with limits on and LIMITED_KEYS `scale` keys in rotation (120 requests a
 * minute each, so none is refused), as run.ts. Needs `npm run build` in DIR.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createKey } from '../../src/accounts/keys.js';
import { parseDatabaseUrl } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createTestDatabase, TEST_REDIS_URL, type Backend } from '../../test/helpers/backends.js';
import { BENCH_METRICS_TOKEN, freePort, LIMITED_KEYS, npmStartEnv, stop, waitForHealth } from './processes.js';

export interface BuildService {
  readonly origin: string;
  readonly process: ChildProcess;
  /** The next key in rotation, as request headers. */
  headers(): Record<string, string>;
  /** How many keys are in rotation. */
  readonly keyCount: number;
  /** Stops the service and drops its database. */
  close(): Promise<void>;
}

/** `nodeArgs` go before the script (e.g. `--cpu-prof`); `stdout` (a file descriptor) receives the service's standard output, else it is discarded. */
export async function startBuildService(dir: string, backend: Backend, nodeArgs: readonly string[] = [], stdout: number | 'ignore' = 'ignore'): Promise<BuildService> {
  const created = await createTestDatabase(backend);
  const database = openDatabase(parseDatabaseUrl(created.url));
  await migrateToLatest(database.db);
  const limited = backend === 'postgres';
  const keys: string[] = [];
  for (let i = 0; i < (limited ? LIMITED_KEYS : 1); i++) {
    keys.push((await createKey(database.db, { tier: limited ? 'scale' : 'enterprise', now: Date.now() })).key);
  }
  await database.close();
  const port = await freePort();
  const limits = limited ? { RATE_LIMIT_STORE: 'redis', REDIS_URL: TEST_REDIS_URL } : { RATE_LIMIT_STORE: 'none' };
  const env = {
    ...process.env,
    DATABASE_URL: created.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    ...npmStartEnv(dir),
    METRICS_TOKEN: BENCH_METRICS_TOKEN,
    ...limits,
  };
  const service = spawn(process.execPath, [...nodeArgs, join(dir, 'dist/cli.js'), 'serve', '--no-migrate'], { env, stdio: ['ignore', stdout, 'inherit'] });
  const origin = `http://127.0.0.1:${port}`;
  const close = async () => {
    await stop(service);
    await created.drop();
  };
  try {
    await waitForHealth(`${origin}/v1/health`, service);
  } catch (error) {
    await close();
    throw error;
  }
  let next = 0;
  return {
    origin,
    process: service,
    headers: () => ({ authorization: `Bearer ${keys[next++ % keys.length]}`, 'content-type': 'application/json' }),
    keyCount: keys.length,
    close,
  };
}
