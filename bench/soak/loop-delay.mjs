// Loaded into the soaked server with `node --import` (bench/soak/run.ts): the server's own
// event-loop delay, which no endpoint reports. Every PERIOD_MS it writes one line to stderr,
// `soak-loop-delay {"p99":…,"max":…}` in ms, and starts a new histogram, so each line is
// that period's delay alone. SIGUSR2 (sent when the load starts) starts a new period, so
// the start-up's own work, before the server listened, is not counted as delay.
// Bench only: never part of the service.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const PERIOD_MS = Number(process.env.SOAK_LOOP_DELAY_PERIOD_MS ?? 10_000);
const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();
const report = () => {
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  process.stderr.write(`soak-loop-delay ${JSON.stringify({ p99: ms(histogram.percentile(99)), max: ms(histogram.max) })}\n`);
  histogram.reset();
};
let periods = setInterval(report, PERIOD_MS).unref();
process.on('SIGUSR2', () => {
  clearInterval(periods);
  histogram.reset();
  periods = setInterval(report, PERIOD_MS).unref();
});
