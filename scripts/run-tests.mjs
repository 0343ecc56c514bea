#!/usr/bin/env node
// Runs every test/**/*.test.ts with node:test through tsx. Node 20's --test does not
// expand globs or pick up .ts files itself, so the list is built here. The event-loop
// bound and the 2 MiB documents' answer bounds run last, one file at a time (ALONE below).
// Usage: node scripts/run-tests.mjs [path-filter ...]
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function collect(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return collect(path);
      return name.endsWith('.test.ts') ? [path] : [];
    });
}

const filters = process.argv.slice(2);
const files = collect('test').filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// Tests that time the service's event loop (a health check answered within 100 ms while a
// large document is translated) or a 2 MiB hostile document's answer against the contract's
// 5 s run after the rest, one file at a time: beside another test file on a 2-core machine
// they would time that file's work, not the service's (on a slow machine both documents
// went past 5 s beside other files and not alone; docs/benchmarks.md, "A slower machine").
const ALONE = ['test/event-loop/large-documents.test.ts', 'test/formats/markdown-hostile.test.ts', 'test/hostile/documents.test.ts'];
const together = files.filter((file) => !ALONE.includes(file));
const alone = files.filter((file) => ALONE.includes(file));

function run(batch, concurrency) {
  const result = spawnSync(
    process.execPath,
    // --conditions=source: `#client` (package.json "imports") loads the client's TypeScript
    // sources here, as the typecheck reads them; the built CLI loads client/dist.
    ['--conditions=source', '--import', 'tsx', '--test', '--test-reporter=spec', `--test-concurrency=${concurrency}`, ...batch],
    { stdio: 'inherit' },
  );
  return result.status ?? 1;
}

const statuses = [
  [together, 2],
  [alone, 1],
]
  .filter(([batch]) => batch.length > 0)
  .map(([batch, concurrency]) => run(batch, concurrency));
process.exit(statuses.find((status) => status !== 0) ?? 0);
