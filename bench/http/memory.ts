/**
 * Where the service's memory goes (docs/benchmarks.md, "HTTP request path"): RSS and
 * threads of `node DIR/dist/cli.js serve` (SQLite, pseudo, limits off) when idle, after
 * one request (its source language detected: the detector's table is loaded), and at the
 * peak of 4 s at 200 connections, in the environment DIR's `npm start` gives it. Needs
 * `npm run build` in DIR.
 *
 *   npx tsx bench/http/memory.ts [DIR=.] [node options for the service...]
 *   ROUNDS=5 npx tsx bench/http/memory.ts    # 4 s rounds at 200 connections, RSS after each
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import autocannon from 'autocannon';
import { resolve } from 'node:path';
import { createKey } from '../../src/accounts/keys.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { parseDatabaseUrl } from '../../src/config.js';
import { npmStartEnv, rssMb, stop, threads, waitForHealth } from './processes.js';
const dir = resolve(process.argv[2] ?? '.'); const extra = process.argv.slice(3);
const url = `sqlite:/tmp/speed2-probe-${process.pid}.db`;
const database = openDatabase(parseDatabaseUrl(url)); await migrateToLatest(database.db);
const { key } = await createKey(database.db, { tier: 'enterprise', now: Date.now() }); await database.close();
const port = 40000 + (process.pid % 20000);
const child = spawn(process.execPath, [...extra, `${dir}/dist/cli.js`, 'serve', '--no-migrate'], { env: { ...process.env, DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', RATE_LIMIT_STORE: 'none', ...npmStartEnv(dir) }, stdio: 'ignore' });
const rss = () => `${Math.round(rssMb(child.pid!))} MB, ${threads(child.pid!)} threads`;
await waitForHealth(`http://127.0.0.1:${port}/v1/health`, child);
await new Promise((r) => setTimeout(r, 500));
console.log('idle', rss());
const body = JSON.stringify({ content: 'The weather is lovely today, so we are going for a walk.', targets: ['fr'] });
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
await fetch(`http://127.0.0.1:${port}/v1/translate`, { method: 'POST', headers, body });
await new Promise((r) => setTimeout(r, 500));
console.log('after one request', rss());
for (let round = 1; round <= Number(process.env.ROUNDS ?? 1); round++) {
  let peak = 0;
  const t = setInterval(() => { peak = Math.max(peak, rssMb(child.pid!)); }, 100);
  const r = await autocannon({ url: `http://127.0.0.1:${port}/v1/translate`, method: 'POST', headers, body, connections: 200, duration: 4 });
  clearInterval(t);
  await new Promise((r) => setTimeout(r, 500));
  console.log(`200 conns, round ${round}:`, Math.round(r.requests.average), 'req/s, peak', Math.round(peak), 'MB; after', rss());
}
await stop(child);
rmSync(url.slice('sqlite:'.length), { force: true });
