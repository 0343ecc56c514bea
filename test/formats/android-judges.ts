/**
 * Readers of Android resources that are not ours, for the tests: Debian's aapt (which
 * compiles a `strings.xml` and prints the values it read), translate-toolkit's Android
 * reader (aapt's escapes applied) and Python's expat. Each answers what it read, or
 * throws what it said.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What translate-toolkit's Android reader (aapt's escapes applied) reads: id → text, or
 * the forms of a plural in the order of its plural tags for `language` (the file's
 * language, which it otherwise takes from a `values-xx` folder; English without one).
 */
export function toolkitUnits(xml: string, language?: string): Record<string, string | string[]> {
  const program = `
import sys, json
from translate.storage import aresource
store = aresource.AndroidResourceFile()
if len(sys.argv) > 1: store.settargetlanguage(sys.argv[1])
store.parse(sys.stdin.buffer.read())
out = {}
for unit in store.units:
    plural = unit.xmlelement.tag == 'plurals'
    out[unit.getid()] = [str(s) for s in unit.target.strings] if plural else str(unit.source)
print(json.dumps(out))
`;
  // (The reader prints plural forms as it reads them: the answer is the last line.)
  const lines = execFileSync('/usr/bin/python3', ['-c', program, ...(language ? [language] : [])], { input: xml, encoding: 'utf8' }).trim().split('\n');
  return JSON.parse(lines.at(-1)!) as Record<string, string | string[]>;
}

/** Well-formed XML for Python's expat (an internal DOCTYPE's entities included); the quantities of each `<plurals>`. */
export function quantities(xml: string): Record<string, string[]> {
  const program = `
import sys, json, xml.etree.ElementTree as E
root = E.fromstring(sys.stdin.read())
print(json.dumps({p.get('name'): [i.get('quantity') for i in p.findall('item')] for p in root.findall('plurals')}))
`;
  return JSON.parse(execFileSync('python3', ['-c', program], { input: xml, encoding: 'utf8' })) as Record<string, string[]>;
}

/** The string values aapt compiles from `xml` (as `aapt dump --values` prints them), by name; throws with aapt's message when it refuses. */
export function aaptValues(xml: string): Map<string, string> {
  const project = mkdtempSync(join(tmpdir(), 'aapt-'));
  try {
    mkdirSync(join(project, 'res', 'values'), { recursive: true });
    writeFileSync(join(project, 'AndroidManifest.xml'), '<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.judge"/>\n');
    writeFileSync(join(project, 'res', 'values', 'strings.xml'), xml);
    const apk = join(project, 'out.apk');
    execFileSync('aapt', ['package', '-f', '-M', join(project, 'AndroidManifest.xml'), '-S', join(project, 'res'), '-I', '/usr/share/android-framework-res/framework-res.apk', '-F', apk], { stdio: 'pipe' });
    const dump = execFileSync('aapt', ['dump', '--values', 'resources', apk], { encoding: 'utf8' });
    const values = new Map<string, string>();
    for (const match of dump.matchAll(/:string\/(\w+): t=0x03[^\n]*\n\s*\(string\w*\) (".*")$/gm)) values.set(match[1]!, match[2]!);
    return values;
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}
