/**
 * Preloaded into a service by bench/http/request-counts.ts (`node --import` this file)
 * with COUNTS_FILE set: counts `process.nextTick` calls by the callback's name and the
 * async resources made (promises among them) by type (not with COUNT_CALLS=0), and writes the running totals as
 * JSON to COUNTS_FILE on SIGUSR2. The counting costs time of its own: read the counts,
 * not the speed, of a process that runs with it.
 */
import { createHook } from 'node:async_hooks';
import { writeFileSync } from 'node:fs';

const ticks = Object.create(null);
const resources = Object.create(null);
/** COUNT_CALLS=0: no counting (the heap profile alone, without what the hooks allocate). */
const counting = process.env.COUNT_CALLS !== '0';
const nextTick = process.nextTick;
if (counting) {
  process.nextTick = function countedNextTick(callback, ...args) {
    const name = callback.name || '(anonymous)';
    ticks[name] = (ticks[name] ?? 0) + 1;
    return nextTick(callback, ...args);
  };
}
/** With COUNT_STACKS=N, where promises are made: every Nth one's creating frames, by call site. */
const every = Number(process.env.COUNT_STACKS ?? 0);
const sites = Object.create(null);
let made = 0;
const siteOf = () => {
  const frames = new Error().stack.split('\n').slice(3);
  const ours = frames.filter((frame) => !frame.includes('node:internal') && !frame.includes('count-calls.mjs')).slice(0, 3);
  return ours.map((frame) => frame.trim().replace(/^at /, '').replace(/file:\/\/\S*?\/(dist|node_modules)\//, '$1/')).join(' < ');
};
if (counting) {
  createHook({
    init(_id, type) {
      resources[type] = (resources[type] ?? 0) + 1;
      if (every > 0 && type === 'PROMISE' && ++made % every === 0) {
        const site = siteOf();
        sites[site] = (sites[site] ?? 0) + every;
      }
    },
  }).enable();
}
process.on('SIGUSR2', () => writeFileSync(process.env.COUNTS_FILE, JSON.stringify({ ticks, resources, sites })));

/**
 * With ALLOCATIONS_FILE set: V8's sampling heap profiler, keeping the samples of objects
 * young and full collections freed (what a request allocates and drops), started on the
 * first SIGUSR2 and written as a .heapprofile on the second.
 */
if (process.env.ALLOCATIONS_FILE) {
  const { Session } = await import('node:inspector');
  const session = new Session();
  session.connect();
  const post = (method, params) => new Promise((done, fail) => session.post(method, params, (error, result) => (error ? fail(error) : done(result))));
  let sampling = false;
  process.on('SIGUSR2', async () => {
    if (!sampling) {
      sampling = true;
      await post('HeapProfiler.startSampling', { samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
      return;
    }
    const { profile } = await post('HeapProfiler.stopSampling');
    writeFileSync(process.env.ALLOCATIONS_FILE, JSON.stringify(profile));
  });
}
