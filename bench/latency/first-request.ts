/**
 * The first one-target request a fresh service answers after the latency bench's warm-up
 * (40 strings into two targets), against the same request right after it: what a run's
 * first request pays once per process before its first model call. Each round starts a
 * new service, so each round gives one first request.
 *
 *   npx tsx bench/latency/first-request.ts --rounds 5
 *   npx tsx bench/latency/first-request.ts --rounds 5 --root /tmp/other-checkout
 *
 * Results are in docs/benchmarks.md ("Latency", issue 36).
 */
import { fileURLToPath } from 'node:url';
import { fewStrings, manyStringsFile } from './documents.js';
import { startFakeModel, type FakeModel } from './fake-model.js';
import { forgetMemory, post, startService, type Service } from './service.js';

const argument = (name: string): string | undefined => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
};
const ROUNDS = Math.max(1, Number(argument('--rounds') ?? 5));
const ROOT = argument('--root') ?? fileURLToPath(new URL('../..', import.meta.url));

/** Milliseconds from sending the request to the fake's first call, and to the answer. */
async function timed(model: FakeModel, service: Service, body: unknown): Promise<{ firstCall: number; wall: number }> {
  await forgetMemory(service);
  model.reset();
  const started = performance.now();
  await post(service, '/translate', body);
  return { firstCall: Math.min(...model.calls.map((call) => call.at)) - started, wall: performance.now() - started };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const model = await startFakeModel({ ttftMs: 400, tokensPerSecond: 80 });
const five = { content: fewStrings(), format: 'json', targets: ['ar'] };
const firsts: { firstCall: number; wall: number }[] = [];
const seconds: { firstCall: number; wall: number }[] = [];
console.error(`service from ${ROOT}`);
for (let round = 0; round < ROUNDS; round++) {
  const service = await startService(ROOT, model, 8);
  try {
    // The latency bench's warm-up: the tables and workers a running service has loaded.
    await timed(model, service, { content: manyStringsFile(40), format: 'json', targets: ['de', 'fr'] });
    const first = await timed(model, service, five);
    const second = await timed(model, service, five);
    firsts.push(first);
    seconds.push(second);
    console.error(`round ${round + 1}: first request ${first.firstCall.toFixed(0)} ms to its first call, ${first.wall.toFixed(0)} ms; second ${second.firstCall.toFixed(0)} ms, ${second.wall.toFixed(0)} ms`);
  } finally {
    await service.stop();
  }
}
await model.close();
const ms = (values: readonly number[]) => `${median(values).toFixed(0)} ms`;
console.log(
  `five strings → 1 target, medians of ${ROUNDS} fresh services: first request ${ms(firsts.map((r) => r.firstCall))} to its first call (${ms(firsts.map((r) => r.wall))} in all), the next ${ms(seconds.map((r) => r.firstCall))} (${ms(seconds.map((r) => r.wall))}); service from ${ROOT}`,
);
