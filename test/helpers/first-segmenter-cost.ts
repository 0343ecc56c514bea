/**
 * Run as its own process (a process loads ICU's sentence rules once): prints the CPU
 * milliseconds the process spent making a sentence segmenter, in a bare process (`bare`)
 * or after the composition root made the services (`services`). Building the rules'
 * tables costs ~9 ms of CPU, a made segmenter after them ~0.05 ms; CPU time, unlike a
 * wait, does not grow when a loaded machine leaves the process unscheduled. (Pages first
 * touched were tried: where malloc reuses freed memory, building the rules touches few.)
 * For test/translation/sentence-rules-at-start.test.ts.
 */
import { loadConfig, parseDatabaseUrl } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createServices } from '../../src/services.js';
import { quietLogger } from '../jobs/queue-setup.js';
import { createTestDatabase } from './backends.js';

const mode = process.argv[2];
let close = async () => {};
if (mode === 'services') {
  const testDb = await createTestDatabase('sqlite');
  const database = openDatabase(parseDatabaseUrl(testDb.url));
  await migrateToLatest(database.db);
  await database.close();
  const services = await createServices(loadConfig({ DATABASE_URL: testDb.url, RATE_LIMIT_STORE: 'memory' }), { logger: quietLogger });
  close = async () => {
    await services.close();
    await testDb.drop();
  };
} else if (mode !== 'bare') throw new Error(`mode: bare or services, not ${mode}`);

// Let whatever the services started settle, so that the CPU counted below is the segmenter's.
await new Promise((resolve) => setTimeout(resolve, 300));
const before = process.cpuUsage();
new Intl.Segmenter('de', { granularity: 'sentence' });
const { user, system } = process.cpuUsage(before);
const cpuMs = (user + system) / 1000;
await close();
console.log(JSON.stringify({ cpuMs }));
