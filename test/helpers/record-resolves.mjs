// A module-resolution hook for child processes in tests: writes the URL of every module
// the process resolves to stderr, one `resolved <url>` line each, so a test can tell
// which packages a process loaded. Registered with `--import <data: URL>` (see
// test/run/runners.test.ts); writeSync because hooks run on their own thread.
import { writeSync } from 'node:fs';

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  writeSync(2, `resolved ${result.url}\n`);
  return result;
}
