/**
 * Writes the OpenAPI document the app serves at /v1/openapi.json to client/openapi.json,
 * from which the client's types are generated (`npm run client:types`). The app is built
 * on an in-memory database and never listens.
 */
import { writeFileSync } from 'node:fs';
import { loadConfig } from '../src/config.js';
import { buildApp } from '../src/http/app.js';
import { createLogger } from '../src/logger.js';
import { createServices } from '../src/services.js';

export const OPENAPI_FILE = new URL('../client/openapi.json', import.meta.url);

const services = await createServices(loadConfig({ DATABASE_URL: 'sqlite::memory:', RATE_LIMIT_STORE: 'none' }), {
  logger: createLogger('silent'),
});
const app = await buildApp(services);
await app.ready();
const answer = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
writeFileSync(OPENAPI_FILE, `${JSON.stringify(JSON.parse(answer.body), null, 2)}\n`);
await app.close();
await services.close();
console.log(`wrote ${OPENAPI_FILE.pathname}`);
