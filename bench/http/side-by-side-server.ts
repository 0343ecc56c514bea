/**
 * side-by-side.ts's serving process: each DIR's app (its own dist/, its own node_modules)
 * on a port of its own and a new SQLite file, with an enterprise key. Tells its parent the
 * ports and keys, then answers 'cpu' with the CPU it has used (all threads, µs).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_METRICS_TOKEN } from './processes.js';

/** A build's own modules, loaded from its dist/ (two builds' copies never mix). */
const fromBuild = (dir: string, file: string) => import(pathToFileURL(join(dir, 'dist', file)).href);

const folders: string[] = [];
const ready = [];
const closers: (() => Promise<void>)[] = [];
for (const dir of process.argv.slice(2)) {
  const [{ loadConfig }, { createServices }, { buildApp }, { migrateToLatest }, { createKey }] = await Promise.all([
    fromBuild(dir, 'config.js'),
    fromBuild(dir, 'services.js'),
    fromBuild(dir, 'http/app.js'),
    fromBuild(dir, 'db/migrate.js'),
    fromBuild(dir, 'accounts/keys.js'),
  ]);
  const folder = mkdtempSync(join(tmpdir(), 'side-by-side-'));
  folders.push(folder);
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: `sqlite:${join(folder, 'service.db')}`,
    HOST: '127.0.0.1',
    PORT: '0',
    RATE_LIMIT_STORE: 'none',
    METRICS_TOKEN: BENCH_METRICS_TOKEN,
  });
  const services = await createServices(config);
  await migrateToLatest(services.database.db);
  // As `serve` does in builds that load the detector at start; older builds load it on their first request.
  await services.detector?.load?.();
  const app = await buildApp(services);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { key } = await createKey(services.database.db, { tier: 'enterprise', now: Date.now() });
  ready.push({ dir, port: (app.server.address() as { port: number }).port, key });
  closers.push(async () => {
    await app.close();
    await services.close();
  });
}

process.send!({ ready });
process.on('message', (message) => {
  if (message !== 'cpu') return;
  const { user, system } = process.cpuUsage();
  process.send!({ cpuUs: user + system });
});
process.once('SIGTERM', async () => {
  for (const close of closers) await close().catch(() => {});
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  process.exit(0);
});
