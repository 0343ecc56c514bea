/**
 * Requests are handled in turns, and their answers leave in turns (docs/decisions/0040,
 * 0045), except while long work holds the loop (0131).
 *
 * Every request starts its work in the event loop's check phase instead of inside the
 * socket callback that parsed it. Under load, the requests that arrived in one pass over
 * the sockets are then handled one after another, with the same code hot in the CPU's
 * caches, instead of each one interleaved with socket reads and parsing.
 *
 * Every answer is written in the check phase after the one its request was handled in:
 * the answers of one turn go out back to back, after all of that turn's requests were
 * handled. Written one at a time between handlers, each answer woke the client for that
 * answer alone, and the client's next request arrived alone too; written together, the
 * kernel's work and the client's replies come in batches, for less CPU a request
 * (docs/benchmarks.md, "Fifth pass").
 *
 * Each costs one turn of the loop when idle. While a large document's loops take their
 * turns in the check phase, though, a turn is every one of those loops' slices: a request
 * sent there waited behind them once to be handled and again to be answered. So while long
 * work has yielded within LONG_WORK_HEARD_MS, requests are handled and answered where they
 * arrive (event-loop/long-work.ts).
 */
import type { FastifyInstance } from 'fastify';
import { hearLongWork } from '../../event-loop/long-work.js';

/**
 * How long after long work last yielded the hops stay off. Each long loop yields at least
 * once a turn of the loop; longer than the longest turn seen under a large document, so the
 * hops do not come back between two of its turns.
 */
export const LONG_WORK_HEARD_MS = 250;

export function handleInTurns(app: FastifyInstance): void {
  // A flag the hooks read, set when long work is heard and cleared by a timer that each
  // hearing pushes back: no clock is read on a request's way through.
  let longWorkHolds = false;
  let quietAgain: NodeJS.Timeout | undefined;
  const stopHearing = hearLongWork(() => {
    longWorkHolds = true;
    if (quietAgain) quietAgain.refresh();
    else quietAgain = setTimeout(() => (longWorkHolds = false), LONG_WORK_HEARD_MS).unref();
  });
  app.addHook('onClose', (_app, done) => {
    stopHearing();
    clearTimeout(quietAgain);
    done();
  });

  app.addHook('onRequest', (_request, _reply, done) => {
    if (longWorkHolds) done();
    else setImmediate(done);
  });
  app.addHook('onSend', (_request, _reply, payload, done) => {
    if (longWorkHolds) done(null, payload);
    else setImmediate(done, null, payload);
  });
}
