/**
 * The Apple formats on real files nobody here wrote (issue 34): `.strings`,
 * `.stringsdict` and String Catalogs (`.xcstrings`) from the shared corpus
 * (`../shared/locale-corpus/`, or LOCALE_CORPUS) and any found under APPLE_BENCH_ROOTS
 * (colon-separated folders: installed packages, a scratch `npm install`, read-only
 * checkouts of public app repositories). For each file and two targets (Russian, with
 * four plural forms; Arabic, right-to-left with six): read or refused (the reason),
 * byte-exact under pseudo (test/formats/byte-exact.ts), valid by a reader that is not
 * ours (Python's plistlib for `.stringsdict`; translate-toolkit's stringsfile for
 * `.strings`, which must read as many units from the answer as from the source;
 * JSON.parse and Xcode's layout for `.xcstrings`: the answer re-written by
 * xcode-json.ts from its parsed value is the answer itself). UTF-16 files are decoded
 * first, as the CLI does (src/localize/text-encoding.ts).
 *
 *   npx tsx bench/formats/apple-real-world.ts
 *   APPLE_BENCH_ROOTS=/tmp/ios/node_modules:/tmp/repos npx tsx bench/formats/apple-real-world.ts
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import type { Format } from '../../src/formats/format.js';
import { getAdapter } from '../../src/formats/index.js';
import { writeXcodeJson } from '../../src/formats/xcstrings/xcode-json.js';
import type { XcodeValue } from '../../src/formats/xcstrings/xcode-json.js';
import { decodeFile } from '../../src/localize/text-encoding.js';
import { byteExactProblem } from '../../test/formats/byte-exact.js';
import { pseudoRender, unpseudo } from '../../test/formats/helpers.js';
import { filesUnder } from './files-under.js';

const CORPUS = process.env.LOCALE_CORPUS ?? join(import.meta.dirname, '..', '..', '..', 'shared', 'locale-corpus');
const ROOTS = (process.env.APPLE_BENCH_ROOTS ?? '').split(':').filter(Boolean);
const BY_EXTENSION: Readonly<Record<string, Format>> = { '.strings': 'strings', '.stringsdict': 'stringsdict', '.xcstrings': 'xcstrings' };
const TARGETS = [
  { code: 'ru', rtl: false },
  { code: 'ar', rtl: true },
];
const MAX_BYTES = 2 * 1024 * 1024;

const walk = (dir: string): Generator<string> => filesUnder(dir, (_, name) => BY_EXTENSION[extname(name)] !== undefined, 14);

export function appleFiles(): { path: string; format: Format; origin: string }[] {
  const out: { path: string; format: Format; origin: string }[] = [];
  for (const folder of ['strings', 'stringsdict', 'xcstrings']) {
    const dir = join(CORPUS, folder);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) out.push({ path: join(dir, name), format: folder as Format, origin: 'corpus' });
  }
  for (const root of ROOTS) for (const path of walk(root)) if (statSync(path).size <= MAX_BYTES) out.push({ path, format: BY_EXTENSION[extname(path)]!, origin: root });
  return out;
}

const scratch = mkdtempSync(join(tmpdir(), 'apple-bench-'));

/** What translate-toolkit reads from a `.strings` (its "strings-utf8" dialect) or `.stringsdict` text: unit name -> text, or why not. */
const toolkitMemo = new Map<string, Record<string, string> | string>();

export function toolkitRead(format: 'strings' | 'stringsdict', text: string): Record<string, string> | string {
  const memo = toolkitMemo.get(text);
  if (memo !== undefined) return memo;
  const read = toolkitReadOnce(format, text);
  if (toolkitMemo.size > 4) toolkitMemo.clear();
  toolkitMemo.set(text, read);
  return read;
}

function toolkitReadOnce(format: 'strings' | 'stringsdict', text: string): Record<string, string> | string {
  const file = join(scratch, `x.${format}`);
  writeFileSync(file, text);
  const script =
    format === 'strings'
      ? 'import sys,json\nfrom translate.storage import properties\ns=properties.propfile(open(sys.argv[1],"rb"),personality="strings-utf8")\nprint(json.dumps({u.name:u.source for u in s.units if u.name}))'
      : 'import sys,json\nfrom translate.storage import stringsdict\ns=stringsdict.StringsDictFile()\ns.parse(open(sys.argv[1],"rb").read())\nprint(json.dumps({u.getid():str(u.source) for u in s.units}))';
  try {
    return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 })) as Record<string, string>;
  } catch (error) {
    return `translate-toolkit: ${String((error as { stderr?: string }).stderr ?? error).trim().split('\n').pop()}`;
  }
}

/** Whether translate-toolkit reads the answer into the source's units, each the source's text once the pseudo marks are removed. */
function toolkitAgrees(format: 'strings' | 'stringsdict', source: string, answer: string): string | undefined {
  const before = toolkitRead(format, source);
  const after = toolkitRead(format, answer);
  if (typeof after === 'string') return after;
  if (typeof before === 'string') return undefined;
  const names = Object.keys(before);
  if (Object.keys(after).length !== names.length) return `translate-toolkit read ${Object.keys(after).length} units, ${names.length} from the source`;
  for (const name of names) {
    // Both sides without marks: a source in another language has accents of its own.
    if (format === 'strings' && unpseudo(after[name] ?? '') !== unpseudo(before[name]!)) return `translate-toolkit: ${name}: ${JSON.stringify(after[name])} is not ${JSON.stringify(before[name])}`;
  }
  return undefined;
}

/** The plist as Python's plistlib reads it (JSON of it), or why not. */
function plistlib(text: string): string {
  const file = join(scratch, 'x.stringsdict');
  writeFileSync(file, text);
  try {
    return execFileSync('/usr/bin/python3', ['-c', 'import sys,plistlib,json\nprint(json.dumps(plistlib.load(open(sys.argv[1],"rb")),sort_keys=True))', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    return `plistlib: ${String((error as { stderr?: string }).stderr ?? error).trim().split('\n').pop()}`;
  }
}

function validity(format: Format, source: string, answer: string): string | undefined {
  if (format === 'strings') {
    return toolkitAgrees('strings', source, answer);
  } else if (format === 'stringsdict') {
    const read = plistlib(answer);
    if (read.startsWith('plistlib:')) return read;
    return toolkitAgrees('stringsdict', source, answer);
  } else {
    let value: XcodeValue;
    try {
      value = JSON.parse(answer) as XcodeValue;
    } catch (error) {
      return `JSON.parse: ${(error as Error).message}`;
    }
    if (writeXcodeJson(value, 0) !== answer.replace(/\n$/, '')) return 'not in Xcode\'s layout';
  }
  return undefined;
}

interface Row {
  files: number;
  refused: number;
  entries: number;
  segments: number;
  byteExact: number;
  valid: number;
  toolkitRead: number;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows: Partial<Record<Format, Row>> = {};
  const problems: string[] = [];
  const started = performance.now();
  for (const file of appleFiles()) {
    const row = (rows[file.format] ??= { files: 0, refused: 0, entries: 0, segments: 0, byteExact: 0, valid: 0, toolkitRead: 0 });
    row.files++;
    const { text } = decodeFile(readFileSync(file.path));
    let doc;
    try {
      doc = getAdapter(file.format).extract(text);
    } catch (error) {
      row.refused++;
      problems.push(`${file.path}: refused: ${(error as Error).message}`);
      continue;
    }
    row.entries += (doc as unknown as { entries: unknown[] }).entries.length;
    row.segments += doc.segments.length;
    let exact = true;
    let valid = true;
    for (const target of TARGETS) {
      const problem = byteExactProblem(doc, target);
      if (problem) {
        exact = false;
        problems.push(`${file.path} → ${target.code}: not byte-exact at ${problem.at}: ${JSON.stringify(problem.expected)} vs ${JSON.stringify(problem.actual)}`);
      }
      const invalid = validity(file.format, text, pseudoRender(doc, target));
      if (invalid) {
        valid = false;
        problems.push(`${file.path} → ${target.code}: ${invalid}`);
      }
    }
    if (exact) row.byteExact++;
    if (valid) row.valid++;
  }
  console.log('| format | files | refused | entries | segments | byte-exact | valid |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [format, row] of Object.entries(rows)) console.log(`| ${format} | ${row.files} | ${row.refused} | ${row.entries} | ${row.segments} | ${row.byteExact} | ${row.valid} |`);
  console.log(`\n${((performance.now() - started) / 1000).toFixed(1)} s`);
  for (const problem of problems.slice(0, 40)) console.log(problem);
  rmSync(scratch, { recursive: true, force: true });
}
