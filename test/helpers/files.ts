/** Files of a folder tree, for tests that read the code itself (test/architecture/). */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under `dir` whose name ends with `suffix`, in sorted order, folders walked depth first. */
export function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return filesUnder(path, suffix);
      return name.endsWith(suffix) ? [path] : [];
    });
}
