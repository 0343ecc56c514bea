/**
 * Run as its own process (a process loads ICU's sentence rules once): prints the memory
 * pages the main thread touched for the first time (minor page faults) while it made a
 * sentence segmenter, in a bare process (`bare`) or after the composition root made the
 * services (`services`). Loading the rules builds their tables, several hundred pages
 * (~9 ms of CPU); a count, unlike a time, does not depend on the machine's load.
 * For test/translation/sentence-rules-at-start.test.ts.
 */
import { readFileSync } from 'node:fs';
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

/**
 * This thread's minor page faults (Linux: /proc/thread-self/stat, field 10), so that a
 * worker thread the services started, touching pages of its own meanwhile, is not
 * counted; the whole process's elsewhere.
 */
function threadPageFaults(): number {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7]);
  } catch {
    return process.resourceUsage().minorPageFault;
  }
}

const before = threadPageFaults();
new Intl.Segmenter('de', { granularity: 'sentence' });
const pageFaults = threadPageFaults() - before;
await close();
console.log(JSON.stringify({ pageFaults }));
