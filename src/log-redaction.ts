/**
 * Credentials never reach a log line (docs/decisions/0037). pino's own `redact` option did
 * this by path, but on every line it parsed each path again and cloned what it touched:
 * in the request-path profile it was ~4 % of the CPU and ~8 % of the bytes allocated for
 * one access line. This formatter does the same job for the shapes this service logs, and
 * allocates only when it finds something:
 *
 * - a credential key at the top level of the logged object (`authorization`, `apiKey`,
 *   `x-api-key`, any case);
 * - the same keys one level down, and in a `headers` object one level down
 *   (`{ headers: { authorization } }`, `{ request: { headers: { authorization } } }`).
 *
 * `req`, `res` and `err` are left to their serializers, which never write headers
 * (Fastify's request serializer writes method, url, host and the client's address);
 * test/http/access-log.test.ts checks that no key reaches a line.
 */
export const CENSOR = '[redacted]';

const SECRET_KEYS: ReadonlySet<string> = new Set(['authorization', 'apikey', 'x-api-key']);
const SERIALIZED: ReadonlySet<string> = new Set(['req', 'res', 'err']);

type Loggable = Record<string, unknown>;

const isObject = (value: unknown): value is Loggable => value !== null && typeof value === 'object' && !Array.isArray(value);

/** `line` with every credential it holds replaced by CENSOR; `line` itself when it holds none. */
export function redactCredentials(line: Loggable): Loggable {
  let copy: Loggable | undefined;
  for (const key in line) {
    if (!Object.hasOwn(line, key)) continue;
    const value = line[key];
    if (SECRET_KEYS.has(key.toLowerCase())) {
      (copy ??= { ...line })[key] = CENSOR;
    } else if (isObject(value) && !SERIALIZED.has(key)) {
      const inner = redactOneLevel(value, true);
      if (inner !== value) (copy ??= { ...line })[key] = inner;
    }
  }
  return copy ?? line;
}

function redactOneLevel(object: Loggable, headersToo: boolean): Loggable {
  let copy: Loggable | undefined;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    const value = object[key];
    if (SECRET_KEYS.has(key.toLowerCase())) {
      (copy ??= { ...object })[key] = CENSOR;
    } else if (headersToo && key === 'headers' && isObject(value)) {
      const headers = redactOneLevel(value, false);
      if (headers !== value) (copy ??= { ...object })[key] = headers;
    }
  }
  return copy ?? object;
}
