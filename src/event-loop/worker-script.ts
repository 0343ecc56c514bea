/**
 * A worker thread for a script beside the calling module, whether the process runs the
 * built JavaScript (dist/) or the TypeScript sources under tsx (tests, benches): the work
 * that leaves the main thread (document reading, SQLite's checkpoints) starts here.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** `name` beside `moduleUrl`, with that module's own extension: `.js` from dist/, `.ts` under tsx. */
export function scriptBeside(moduleUrl: string, name: string): URL {
  return new URL(`./${name}${extname(fileURLToPath(moduleUrl))}`, moduleUrl);
}

export function startWorkerScript(script: URL, options: WorkerOptions): Worker {
  if (script.pathname.endsWith('.js')) return new Worker(script, options);
  // Under tsx a worker inherits execArgv, but Node 20 runs no `--import` preload in worker
  // threads, so the worker registers tsx's loader itself before it loads the script.
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(script.href)}); })`;
  return new Worker(bootstrap, { eval: true, ...options });
}
