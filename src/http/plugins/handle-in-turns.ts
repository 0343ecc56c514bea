/**
 * Requests are handled in turns, and their answers leave in turns (docs/decisions/0040,
 * 0045).
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
 * kernel's work and the client's replies come in batches (measured: ~35 % less CPU a
 * request on the repeat POST /v1/translate; docs/benchmarks.md, "Fifth pass").
 *
 * Each costs one turn of the loop when idle.
 */
import type { FastifyInstance } from 'fastify';

export function handleInTurns(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, _reply, done) => {
    setImmediate(done);
  });
  app.addHook('onSend', (_request, _reply, payload, done) => {
    setImmediate(done, null, payload);
  });
}
