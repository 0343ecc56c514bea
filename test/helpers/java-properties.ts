/**
 * The Java reader as a judge: `java.util.Properties.load` run on files (through
 * PropertiesLoad.java, launched as a single-file program), each answered as its keys and
 * values. Nothing of ours reads them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PROGRAM = join(import.meta.dirname, 'PropertiesLoad.java');

/** What Properties.load reads from each of `contents`, in order. One JVM for all of them. */
export function javaLoad(contents: readonly string[]): Record<string, string>[] {
  const dir = mkdtempSync(join(tmpdir(), 'properties-'));
  try {
    const paths = contents.map((content, i) => {
      const path = join(dir, `${i}.properties`);
      writeFileSync(path, content);
      return path;
    });
    const out = execFileSync('java', [PROGRAM, ...paths], { encoding: 'utf8', maxBuffer: 1 << 28 });
    return out.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, string>);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
