/** The first-run key: the first start with no keys makes one free-tier key and prints it once with a working curl. */
import { countKeys, createKey } from '../accounts/keys.js';
import type { Services } from '../services.js';

/** `port` is the one the API listens on (the configured one may be 0). */
export async function createFirstKeyIfNone(services: Services, port: number): Promise<void> {
  const { db } = services.database;
  if ((await countKeys(db)) > 0) return;
  const created = await createKey(db, { tier: 'free', name: 'first-run', now: services.clock() });
  const host = ['0.0.0.0', '::'].includes(services.config.host) ? '127.0.0.1' : services.config.host;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const base = `${origin}/v1`;
  const { standard, advanced } = services.engines;
  process.stdout.write(
    [
      '',
      'No API keys existed, so a free-tier key was created. It is shown only this once:',
      '',
      `  ${created.key}`,
      '',
      'Try it:',
      '',
      `  curl -s ${base}/translate -H 'Authorization: Bearer ${created.key}' -H 'Content-Type: application/json' -d '{"content":"Hello, world!","targets":["fr","de"]}'`,
      '',
      `Playground: ${origin}/  (paste the key there)`,
      `API reference: ${origin}/docs  (OpenAPI document: ${base}/openapi.json)`,
      '',
      `Models: standard -> ${standard.id}, advanced -> ${advanced.id}` +
        (standard.id === 'pseudo' ? ' (pseudo = built-in pseudo-localization, not a real translation)' : ''),
      'More keys: node dist/cli.js keys create --tier free (see README, "Command line")',
      '',
    ].join('\n') + '\n',
  );
}
