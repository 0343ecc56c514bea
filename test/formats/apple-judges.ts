/**
 * Readers of the Apple formats that are not ours, for the tests and the real-world
 * bench: Python's plistlib (the standard library's XML plist reader) and
 * translate-toolkit (Debian's translate-toolkit: its "strings-utf8" properties dialect for
 * `.strings`, its stringsdict store). Each answers what it read, or throws what it said.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's python3, where translate-toolkit is installed (a pyenv shim may come first on PATH). */
const PYTHON = '/usr/bin/python3';

function runPython(script: string, text: string, extension: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'apple-judge-'));
  try {
    const file = join(dir, `file.${extension}`);
    writeFileSync(file, text);
    return execFileSync(PYTHON, ['-c', script, file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    throw new Error(String((error as { stderr?: string }).stderr ?? error).trim().split('\n').pop());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A `.strings` text as translate-toolkit reads it: key -> value. */
export function toolkitStrings(text: string): Record<string, string> {
  const script = 'import sys,json\nfrom translate.storage import properties\ns=properties.propfile(open(sys.argv[1],"rb"),personality="strings-utf8")\nprint(json.dumps({u.name:u.source for u in s.units if u.name}))';
  return JSON.parse(runPython(script, text, 'strings')) as Record<string, string>;
}

/** A `.stringsdict` text as translate-toolkit reads it: unit id -> source text (plural forms joined by its rules). */
export function toolkitStringsdict(text: string): Record<string, string> {
  const script = 'import sys,json\nfrom translate.storage import stringsdict\ns=stringsdict.StringsDictFile()\ns.parse(open(sys.argv[1],"rb").read())\nprint(json.dumps({u.getid():str(u.source) for u in s.units}))';
  return JSON.parse(runPython(script, text, 'stringsdict')) as Record<string, string>;
}

/** An XML property list as Python's plistlib reads it. */
export function plistlibRead(text: string): unknown {
  return JSON.parse(runPython('import sys,plistlib,json\nprint(json.dumps(plistlib.load(open(sys.argv[1],"rb"))))', text, 'plist'));
}
