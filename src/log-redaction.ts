/**
 * Credentials never reach a log line (docs/decisions/0037). pino's own `redact` option did
 * this by path, but on every line it parsed each path again and cloned what it touched,
 * which showed in the request-path profile. This formatter does the same job for the
 * shapes this service logs, and allocates only when it finds something:
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
  return redact(line, 0);
}

/**
 * `object` (at `depth`: 0 the line, 1 an object on it, 2 that object's `headers`) with its
 * credentials replaced, copied only when there is one. Objects are looked into at depth 0
 * unless a serializer writes them, and at depth 1 only under `headers`.
 */
function redact(object: Loggable, depth: number): Loggable {
  let copy: Loggable | undefined;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    const value = object[key];
    let kept = value;
    if (SECRET_KEYS.has(key.toLowerCase())) kept = CENSOR;
    else if (isObject(value) && (depth === 0 ? !SERIALIZED.has(key) : depth === 1 && key === 'headers')) kept = redact(value, depth + 1);
    if (kept !== value) (copy ??= { ...object })[key] = kept;
  }
  return copy ?? object;
}
