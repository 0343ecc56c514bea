/**
 * The access line's fields, assembled in one place (decisions 0031, 0037, 0041): what
 * Fastify's request and reply serializers give (fastify/lib/logger-pino.js), the time the
 * answer took and, for a translating route, its work. The same object is written by hand
 * through pino's stream where the logger allows (library-patches/pino-raw-line.ts: under
 * load that takes a tenth off the CPU a request costs, docs/benchmarks.md, "Fourth pass")
 * and through pino's public `info` otherwise, so the two ways cannot drift apart.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { WorkSummary } from '../../translation/service.js';
import { writeRawInfoLine } from '../../library-patches/pino-raw-line.js';

const MESSAGE = 'request completed';

/** The line's fields; an undefined member is left out, as pino leaves it out. */
interface AccessLine {
  readonly req: {
    readonly method: string;
    readonly url: string;
    readonly version: string | string[] | undefined;
    readonly host: string;
    readonly remoteAddress: string;
    readonly remotePort: number | undefined;
  };
  readonly res: { readonly statusCode: number };
  /** pino writes a number that is not finite as null; JSON.stringify does too. */
  readonly responseTime: number;
  readonly work: WorkSummary | undefined;
}

export function accessLineOf(request: FastifyRequest, reply: FastifyReply, work: WorkSummary | undefined): AccessLine {
  return {
    req: {
      method: request.method,
      url: request.url,
      version: request.headers['accept-version'],
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    },
    res: { statusCode: reply.statusCode },
    responseTime: reply.elapsedTime,
    work,
  };
}

/** The fields as they are: pino must not run Fastify's serializers over what is already serialized. */
const AS_THEY_ARE = { serializers: { req: (req: unknown) => req, res: (res: unknown) => res } };

/** Writes the "request completed" line of `request` at `info` (nothing if `info` is off). */
export function writeAccessLine(log: Logger, request: FastifyRequest, reply: FastifyReply, work: WorkSummary | undefined): void {
  const line = accessLineOf(request, reply, work);
  const json = JSON.stringify(line);
  if (writeRawInfoLine(log, json.slice(1, -1), MESSAGE)) return;
  log.child({}, AS_THEY_ARE).info(line, MESSAGE);
}
