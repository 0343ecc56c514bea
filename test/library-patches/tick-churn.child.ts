/**
 * Run by tick-object-shape.test.ts in a process of its own (node --expose-gc): optionally
 * holds a tick object, lets full collections run while no tick is pending (what loading the
 * detector's table does at start), then prints the cost of one `process.nextTick` in ns,
 * the median of its rounds. Argument: `hold` or `none`.
 */
import { holdTickObjectShape } from '../../src/library-patches/tick-object-shape.js';

const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('run with --expose-gc');
const held = process.argv[2] === 'hold' ? holdTickObjectShape() : false;
const noop = () => {};
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

for (let cycle = 0; cycle < 5; cycle++) {
  for (let i = 0; i < 2000; i++) process.nextTick(noop);
  await nextTurn();
  collect();
}
const rounds: number[] = [];
for (let round = 0; round < 25; round++) {
  await nextTurn();
  const started = process.hrtime.bigint();
  for (let i = 0; i < 20_000; i++) process.nextTick(noop);
  rounds.push(Number(process.hrtime.bigint() - started) / 20_000);
}
rounds.sort((a, b) => a - b);
process.stdout.write(JSON.stringify({ held, nsPerTick: rounds[Math.floor(rounds.length / 2)] }));
