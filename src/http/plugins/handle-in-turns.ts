/**
 * Every request starts its work in the event loop's check phase instead of inside the
 * socket callback that parsed it (docs/decisions/0040). Under load, the requests that
 * arrived in one pass over the sockets are then handled one after another, with the same
 * code hot in the CPU's caches, instead of each one interleaved with socket reads and
 * parsing: measured ~25–35 % less CPU per request and a lower p99 on this machine
 * (docs/benchmarks.md, "HTTP request path"). When idle it costs one turn of the loop,
 * a few microseconds.
 */
import type { FastifyInstance } from 'fastify';

export function handleInTurns(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, _reply, done) => {
    setImmediate(done);
  });
}
