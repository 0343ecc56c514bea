/**
 * One build's service started and warmed for the benches that compare builds on the same
 * request (compare-builds.ts, request-counts.ts): build-service.ts's service, then one
 * request for each key (the first alone; processes.ts firstRequestOfEachKey) unless
 * `cold`, then a warm-up load that is not counted (JIT, first GCs, the first detection's
 * clean-up). The caller measures with `load` and closes the service.
 */
import autocannon, { type Options } from 'autocannon';
import type { Backend } from '../../test/helpers/backends.js';
import { startBuildService, type BuildService } from './build-service.js';
import { firstRequestOfEachKey } from './processes.js';

/** One sentence into French: the small request whose cost these benches follow. */
export const TRANSLATE_BODY = JSON.stringify({ content: 'The weather is lovely today, so we are going for a walk.', targets: ['fr'] });
export const CONNECTIONS = 50;

/** autocannon's options for POST /v1/translate on `service`, its keys in rotation; add `amount` or `duration`. */
export function translateLoad(service: BuildService): Options {
  return {
    url: `${service.origin}/v1/translate`,
    method: 'POST',
    body: TRANSLATE_BODY,
    connections: CONNECTIONS,
    requests: [{ method: 'POST', body: TRANSLATE_BODY, setupRequest: (request) => ({ ...request, headers: service.headers() }) }],
  };
}

export interface WarmService {
  readonly service: BuildService;
  /** autocannon's options for POST /v1/translate on the service, keys in rotation; add `amount` or `duration`. */
  readonly load: Options;
}

export async function startWarmService(
  dir: string,
  backend: Backend,
  /** How much load warms it: a number of requests or seconds. */
  warm: { readonly amount: number } | { readonly duration: number },
  options: { readonly nodeArgs?: readonly string[]; readonly stdout?: number; readonly cold?: boolean } = {},
): Promise<WarmService> {
  const service = await startBuildService(dir, backend, options.nodeArgs, options.stdout);
  try {
    const load = translateLoad(service);
    const url = load.url;
    if (options.cold !== true) await firstRequestOfEachKey(url, service.keyCount, service.headers, TRANSLATE_BODY);
    await autocannon({ ...load, ...warm });
    return { service, load };
  } catch (error) {
    await service.close();
    throw error;
  }
}
