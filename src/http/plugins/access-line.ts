/**
 * The access line's fields, assembled in one place (decisions 0031, 0037, 0041): what
 * Fastify's request and reply serializers give (fastify/lib/logger-pino.js), the time the
 * answer took and, for a translating route, its work. The same members are written by hand
 * through pino's stream where the logger allows (library-patches/pino-raw-line.ts: under
 * load that takes a tenth off the CPU a request costs, docs/benchmarks.md, "Fourth pass")
 * and through pino's public `info` otherwise, so the two ways cannot drift apart.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { WorkSummary } from '../../translation/service.js';
import { writeRawInfoLine } from '../../library-patches/pino-raw-line.js';

const MESSAGE = 'request completed';

/**
 * The line's fields as JSON members (no braces), in the order and spelling pino writes
 * `{ req, res, responseTime, work }` through Fastify's serializers: an undefined member is
 * left out, as pino leaves it out; a number that is not finite is null. Written member by
 * member: JSON.stringify over a nested object of the same fields cost each request more
 * than the rest of its line (docs/benchmarks.md, "Request path after the fences").
 */
export function accessLineFields(request: FastifyRequest, reply: FastifyReply, work: WorkSummary | undefined): string {
  let req = `"method":${JSON.stringify(request.method)},"url":${JSON.stringify(request.url)}`;
  req += member('version', request.headers['accept-version']);
  req += member('host', request.host);
  req += member('remoteAddress', request.ip);
  req += member('remotePort', request.socket?.remotePort);
  return `"req":{${req}},"res":{"statusCode":${reply.statusCode}},"responseTime":${JSON.stringify(reply.elapsedTime)}${member('work', work)}`;
}

/** `,"name":value`, or nothing for an undefined value. */
const member = (name: string, value: unknown): string => (value === undefined ? '' : `,"${name}":${JSON.stringify(value)}`);

/** The fields as they are: pino must not run Fastify's serializers over what is already serialized. */
const AS_THEY_ARE = { serializers: { req: (req: unknown) => req, res: (res: unknown) => res } };

/** Writes the "request completed" line of `request` at `info` (nothing if `info` is off). */
export function writeAccessLine(log: Logger, request: FastifyRequest, reply: FastifyReply, work: WorkSummary | undefined): void {
  const fields = accessLineFields(request, reply, work);
  if (writeRawInfoLine(log, fields, MESSAGE)) return;
  // The same members through pino's public path (a logger with a mixin, redaction, …).
  log.child({}, AS_THEY_ARE).info(JSON.parse(`{${fields}}`) as object, MESSAGE);
}
