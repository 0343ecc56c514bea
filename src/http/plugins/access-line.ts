/**
 * The access line assembled by hand (docs/decisions/0041): byte for byte what pino writes
 * for `{ req, res, responseTime, work }` through Fastify's request and reply serializers,
 * without pino's general path — serializer calls, a `typeof` switch and a stringify per
 * field, the formatter, the intermediate objects. Under load this takes 9–12 % off the CPU
 * a request costs (docs/benchmarks.md, "Fourth pass").
 *
 * It is used only where pino would add nothing: the logger has no mixin, no stream-write
 * hook, no nested key, no per-key stringifiers (pino's `redact`), and its stream does not
 * ask for metadata (pino's multistream). Otherwise `writeAccessLine` returns false and the
 * caller logs through pino as before. test/http/access-log.test.ts compares the two
 * outputs for the same request.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { symbols, type Logger } from 'pino';
import type { WorkSummary } from '../../translation/service.js';

/** The pino internals this reads; all are exported by pino as `pino.symbols`. */
interface PinoInternals {
  [symbols.streamSym]: { write(line: string): unknown; [symbols.needsMetadataGsym]?: boolean };
  [symbols.timeSym]: () => string;
  [symbols.chindingsSym]: string;
  [symbols.lsCacheSym]: Record<number, string>;
  [symbols.endSym]: string;
  [symbols.messageKeySym]: string;
  [symbols.mixinSym]?: unknown;
  [symbols.hooksSym]?: { streamWrite?: unknown };
  [symbols.nestedKeySym]?: unknown;
  [symbols.stringifiersSym]?: Record<string | symbol, unknown>;
}

const MESSAGE = 'request completed';

/**
 * Writes the "request completed" line of `request` if `log` is a pino logger this can
 * write for, at `info` (nothing if `info` is off). False: log it through pino instead.
 */
export function writeAccessLine(log: Logger, request: FastifyRequest, reply: FastifyReply, work: WorkSummary | undefined): boolean {
  const pino = log as unknown as Logger & PinoInternals;
  const stream = pino[symbols.streamSym];
  const stringifiers = pino[symbols.stringifiersSym];
  if (
    stream === undefined ||
    stream[symbols.needsMetadataGsym] === true ||
    pino[symbols.mixinSym] ||
    pino[symbols.hooksSym]?.streamWrite ||
    pino[symbols.nestedKeySym] ||
    (stringifiers !== undefined && Reflect.ownKeys(stringifiers).length > 0)
  ) {
    return false;
  }
  const info = log.levels.values.info!;
  if (!log.isLevelEnabled('info')) return true;

  // Fastify's request serializer (fastify/lib/logger-pino.js), field for field; pino leaves
  // out what is undefined.
  let line = `${pino[symbols.lsCacheSym][info]}${pino[symbols.timeSym]()}${pino[symbols.chindingsSym]},"req":{"method":${JSON.stringify(request.method)},"url":${JSON.stringify(request.url)}`;
  line += field('version', request.headers['accept-version']);
  line += field('host', request.host);
  line += field('remoteAddress', request.ip);
  line += field('remotePort', request.socket?.remotePort);
  line += `},"res":{"statusCode":${JSON.stringify(reply.statusCode)}}${field('responseTime', finite(reply.elapsedTime))}`;
  if (work !== undefined) line += `,"work":${JSON.stringify(work)}`;
  line += `,${JSON.stringify(pino[symbols.messageKeySym])}:${JSON.stringify(MESSAGE)}${pino[symbols.endSym]}`;
  stream.write(line);
  return true;
}

function field(name: string, value: unknown): string {
  return value === undefined ? '' : `,"${name}":${JSON.stringify(value)}`;
}

/** pino writes a number that is not finite as null. */
const finite = (value: number): number | null => (Number.isFinite(value) ? value : null);
