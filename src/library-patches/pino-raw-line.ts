/**
 * A log line written through pino's own stream with pino's own prefix (level, time,
 * bindings) and end, for a caller that already has the line's fields as JSON: the access
 * line (http/plugins/access-line.ts; decision 0041). pino has no public call for that, so
 * this reads the internals pino exports as `pino.symbols` (written for pino 10).
 *
 * It writes only where pino itself would add nothing: no mixin, no stream-write hook, no
 * nested key, no per-key stringifiers (pino's `redact`), a stream that does not ask for
 * metadata (pino's multistream). Anywhere else, or when a pino release renames what this
 * reads, it returns false and the caller logs through pino's public `info` — the same
 * bytes, more slowly. test/library-patches/pino-raw-line.test.ts fails, naming pino's
 * version, when the internals are no longer where this looks.
 */
import { symbols, type Logger } from 'pino';

/** The pino internals this reads; all are exported by pino as `pino.symbols`. */
interface PinoInternals {
  [symbols.streamSym]?: { write(line: string): unknown; [symbols.needsMetadataGsym]?: boolean };
  [symbols.timeSym]?: () => string;
  [symbols.chindingsSym]?: string;
  [symbols.lsCacheSym]?: Record<number, string>;
  [symbols.endSym]?: string;
  [symbols.messageKeySym]?: string;
  [symbols.mixinSym]?: unknown;
  [symbols.hooksSym]?: { streamWrite?: unknown };
  [symbols.nestedKeySym]?: unknown;
  [symbols.stringifiersSym]?: Record<string | symbol, unknown>;
}

/** Whether `log` is a pino logger this can write for: its internals are where pino 10 keeps them and add nothing of their own. */
export function canWriteRawLines(log: Logger): boolean {
  const pino = log as unknown as Logger & PinoInternals;
  const stream = pino[symbols.streamSym];
  const stringifiers = pino[symbols.stringifiersSym];
  return (
    stream !== undefined &&
    typeof stream.write === 'function' &&
    typeof pino[symbols.timeSym] === 'function' &&
    typeof pino[symbols.chindingsSym] === 'string' &&
    typeof pino[symbols.lsCacheSym] === 'object' &&
    typeof pino[symbols.endSym] === 'string' &&
    typeof pino[symbols.messageKeySym] === 'string' &&
    stream[symbols.needsMetadataGsym] !== true &&
    !pino[symbols.mixinSym] &&
    !pino[symbols.hooksSym]?.streamWrite &&
    !pino[symbols.nestedKeySym] &&
    (stringifiers === undefined || Reflect.ownKeys(stringifiers).length === 0)
  );
}

/**
 * Writes an `info` line whose fields, between pino's prefix and the message, are `fields`
 * (JSON members without the braces: `"a":1,"b":{…}`); nothing when `info` is off. False
 * when `log` is not a logger this can write for: log through pino instead.
 */
export function writeRawInfoLine(log: Logger, fields: string, message: string): boolean {
  if (!canWriteRawLines(log)) return false;
  if (!log.isLevelEnabled('info')) return true;
  const pino = log as unknown as Logger & Required<PinoInternals>;
  const info = log.levels.values.info!;
  pino[symbols.streamSym].write(
    `${pino[symbols.lsCacheSym][info]}${pino[symbols.timeSym]()}${pino[symbols.chindingsSym]},${fields},${JSON.stringify(pino[symbols.messageKeySym])}:${JSON.stringify(message)}${pino[symbols.endSym]}`,
  );
  return true;
}
