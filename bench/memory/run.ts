/**
 * Translation memory, measured (docs/benchmarks.md, "Translation memory"):
 *
 * 1. A 500-key JSON locale file into 5 targets, then the same file with 10 keys changed,
 *    through the real app (buildApp + inject) on each backend: tokens charged and wall
 *    time of both runs, and of the second run with `"memory": false` as the baseline —
 *    with the pseudo engine, and (--model) with a fake OpenAI-compatible model at a
 *    realistic speed (bench/latency/fake-model.ts).
 * 2. The memory lookup's cost per segment × target pair: lookupMemory for the 2,500 keys
 *    of that file against a table already holding 200,000 entries of 20 users.
 *
 *   npx tsx bench/memory/run.ts [sqlite,postgres] [--model] [--ttft=400] [--tps=100]
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { createKey } from '../../src/accounts/keys.js';
import { loadConfig } from '../../src/config.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { buildApp } from '../../src/http/app.js';
import { createLogger } from '../../src/logger.js';
import { lookupMemory, saveMemory } from '../../src/memory/store.js';
import { createServices } from '../../src/services.js';
import { createTestDatabase, testRateLimitEnv, type Backend } from '../../test/helpers/backends.js';
import { startFakeModel } from '../latency/fake-model.js';

const args = process.argv.slice(2);
const backends = (args.find((arg) => !arg.startsWith('--')) ?? 'sqlite,postgres').split(',') as Backend[];
const withModel = args.includes('--model');
const option = (name: string, fallback: number) => Number(args.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const TARGETS = ['fr', 'de', 'es', 'ja', 'pt-BR'];
const KEYS = 500;
const CHANGED = 10;
const silent = createLogger('silent', new Writable({ write: (_c, _e, done) => done() }));

/** A locale file: short UI strings and a few sentences, as real ones are; `changed` keys edited. */
function localeFile(changed: ReadonlySet<number>): string {
  const phrases = ['Save changes', 'Cancel', 'Your account settings were updated.', 'Delete this project?', 'Invite a teammate by e-mail', 'Billing period ends on {date}', 'You have {count, plural, one {# new message} other {# new messages}}'];
  const entries = Array.from({ length: KEYS }, (_, i) => [`section_${Math.floor(i / 20)}.key_${i}`, `${phrases[i % phrases.length]} (${i})${changed.has(i) ? ' — revised' : ''}`]);
  return JSON.stringify(Object.fromEntries(entries), null, 2);
}

async function appRuns(backend: Backend, engine: 'pseudo' | 'model'): Promise<void> {
  const model = engine === 'model' ? await startFakeModel({ ttftMs: option('ttft', 400), tokensPerSecond: option('tps', 100) }) : undefined;
  const database = await createTestDatabase(backend);
  const config = loadConfig({
    DATABASE_URL: database.url,
    ...testRateLimitEnv(backend),
    RATE_LIMIT_STORE: 'none',
    ...(model ? { MODEL_STANDARD: 'openai:bench-model', OPENAI_BASE_URL: model.provider.baseUrl } : {}),
  });
  const services = await createServices(config, { logger: silent });
  await migrateToLatest(services.database.db);
  const app = await buildApp(services);
  try {
    const { key } = await createKey(services.database.db, { tier: 'enterprise', now: Date.now() });
    const changed = new Set(Array.from({ length: CHANGED }, (_, i) => i * 47 + 3));
    const run = async (label: string, content: string, memory: boolean) => {
      const started = performance.now();
      const response = await app.inject({
        method: 'POST',
        url: '/v1/translate',
        headers: { authorization: `Bearer ${key}` },
        payload: { content, targets: TARGETS, format: 'json', memory },
      });
      const ms = performance.now() - started;
      if (response.statusCode !== 200) throw new Error(`${label}: ${response.statusCode} ${response.body.slice(0, 300)}`);
      const usage = JSON.parse(response.body).usage;
      return { label, ms: Math.round(ms), total_tokens: usage.total_tokens, cached_segments: usage.cached_segments };
    };
    const first = await run('first run (empty memory)', localeFile(new Set()), true);
    const second = await run(`${CHANGED} keys changed, memory on`, localeFile(changed), true);
    const baseline = await run(`${CHANGED} keys changed, memory off`, localeFile(changed), false);
    for (const result of [first, second, baseline]) console.log(JSON.stringify({ bench: 'locale file', backend, engine, ...result }));
    console.log(
      JSON.stringify({
        bench: 'locale file: memory on / memory off',
        backend,
        engine,
        tokens: Math.round((second.total_tokens / baseline.total_tokens) * 10_000) / 10_000,
        time: Math.round((second.ms / baseline.ms) * 1_000) / 1_000,
      }),
    );
  } finally {
    await app.close();
    await services.close();
    await database.drop();
    await model?.close();
  }
}

async function lookupCost(backend: Backend): Promise<void> {
  const database = await createTestDatabase(backend);
  const config = loadConfig({ DATABASE_URL: database.url, RATE_LIMIT_STORE: 'none' });
  const services = await createServices(config, { logger: silent });
  const { db } = services.database;
  await migrateToLatest(db);
  try {
    const now = Date.now();
    const key = () => randomBytes(32).toString('hex');
    // 200,000 entries of 20 users, so the index is not a toy.
    for (let user = 0; user < 20; user++) {
      const entries = Array.from({ length: 10_000 }, () => ({ key: key(), translation: 'Enregistrer les modifications (12)' }));
      await saveMemory(db, `user_${user}`, entries, now);
    }
    const pairs = KEYS * TARGETS.length;
    const mine = Array.from({ length: pairs }, () => ({ key: key(), translation: 'Enregistrer les modifications (12)' }));
    const saveStarted = performance.now();
    await saveMemory(db, 'user_0', mine, now);
    const saveMs = performance.now() - saveStarted;
    const keys = mine.map((entry) => entry.key);
    const samples: number[] = [];
    for (let round = 0; round < 23; round++) {
      const started = performance.now();
      const found = await lookupMemory(db, 'user_0', keys, now);
      if (round >= 3) samples.push(performance.now() - started);
      if (found.size !== pairs) throw new Error(`found ${found.size} of ${pairs}`);
    }
    samples.sort((a, b) => a - b);
    const p50 = samples[Math.floor(samples.length / 2)]!;
    console.log(
      JSON.stringify({
        bench: 'memory lookup',
        backend,
        pairs,
        lookup_ms_p50: Math.round(p50 * 10) / 10,
        lookup_us_per_pair: Math.round((p50 * 1_000) / pairs),
        save_us_per_pair: Math.round((saveMs * 1_000) / pairs),
      }),
    );
  } finally {
    await services.close();
    await database.drop();
  }
}

for (const backend of backends) {
  await appRuns(backend, 'pseudo');
  if (withModel) await appRuns(backend, 'model');
  await lookupCost(backend);
}
