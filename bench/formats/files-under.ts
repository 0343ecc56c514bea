/**
 * The files below a folder that `keep` accepts, depth first, for the real-world benches:
 * unreadable folders are passed over, `.git` is never entered, and `maxDepth` bounds the
 * walk (node_modules nests deeply).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export function* filesUnder(dir: string, keep: (path: string, name: string) => boolean, maxDepth = 14, depth = 0): Generator<string> {
  if (depth > maxDepth) return;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== '.git') yield* filesUnder(path, keep, maxDepth, depth + 1);
    else if (entry.isFile() && keep(path, entry.name)) yield path;
  }
}
