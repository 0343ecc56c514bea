/**
 * Android `strings.xml` and Flutter ARB on real files nobody here wrote (issue 34): the
 * shared corpus (`../shared/locale-corpus/{android,arb}`, or LOCALE_CORPUS), the Android
 * framework's own resources as Debian ships them (framework-res.apk decoded by apktool,
 * cached: test/formats/framework-res.ts), public app repositories fetched for reading
 * (git directories under MOBILE_BENCH_MIRRORS, default /work/.mirror: every
 * `values*\/strings.xml` and `*.arb` at HEAD, source and translated files alike) and
 * unpacked npm packages (MOBILE_BENCH_PACKAGES, a folder: React Native libraries ship
 * `android/src/main/res/values/strings.xml`). For each file, into a right-to-left and a
 * many-forms target: read or refused (the reason), byte-exact under pseudo, valid
 * (Android: Python's expat, then aapt compiling the answer whenever it compiles the
 * source alone; ARB: JSON.parse with the source's keys and `@@locale` set), and
 * translate-toolkit's Android reader as a second judge (as many units as the source).
 *
 *   npx tsx bench/formats/mobile-real-world.ts
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Format } from '../../src/formats/format.js';
import { getAdapter } from '../../src/formats/index.js';
import { byteExactProblem } from '../../test/formats/byte-exact.js';
import { frameworkResources } from '../../test/formats/framework-res.js';
import { pseudoRender } from '../../test/formats/helpers.js';
import { filesUnder } from './files-under.js';

const CORPUS = process.env.LOCALE_CORPUS ?? join(import.meta.dirname, '..', '..', '..', 'shared', 'locale-corpus');
const MIRRORS = process.env.MOBILE_BENCH_MIRRORS ?? '/work/.mirror';
const PACKAGES = process.env.MOBILE_BENCH_PACKAGES;
const TARGETS = [
  { code: 'ar', rtl: true },
  { code: 'ru', rtl: false },
];
const MAX_BYTES = 1024 * 1024;
const FRAMEWORK_EVERY = Number(process.env.MOBILE_BENCH_FRAMEWORK_EVERY ?? 6);

interface Source {
  readonly name: string;
  readonly format: Format;
  readonly origin: string;
  readonly content: string;
}

const formatOf = (path: string): Format | undefined => (/\.arb$/.test(path) ? 'arb' : /(?:^|\/)values[^/]*\/strings\.xml$/.test(path) ? 'android' : undefined);

const walk = (dir: string): Generator<string> => filesUnder(dir, (path) => formatOf(path) !== undefined, 14);

function sources(): Source[] {
  const out: Source[] = [];
  for (const folder of ['android', 'arb'] as const) {
    const dir = join(CORPUS, folder);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) out.push({ name, format: folder, origin: 'corpus', content: readFileSync(join(dir, name), 'utf8') });
  }
  // Every language folder's strings would take minutes of aapt and translate-toolkit runs: the default ones and a spread of languages.
  const framework = frameworkResources().filter((file) => /^values(?:-[a-z]{2,3}(?:-r[A-Z]{2})?)?\//.test(file.path));
  for (const [i, file] of framework.entries()) if (!file.path.startsWith('values-') || i % FRAMEWORK_EVERY === 0) out.push({ name: file.path, format: 'android', origin: 'framework-res (Debian)', content: file.content });
  if (existsSync(MIRRORS)) {
    for (const repo of readdirSync(MIRRORS).sort()) {
      const git = join(MIRRORS, repo, 'repo');
      if (!existsSync(git)) continue;
      let paths: string[];
      try {
        paths = execFileSync('git', ['-C', git, 'ls-tree', '-r', '--name-only', 'HEAD'], { encoding: 'utf8', maxBuffer: 1 << 28 }).split('\n');
      } catch {
        continue;
      }
      for (const path of paths) {
        const format = formatOf(path);
        if (!format) continue;
        const content = execFileSync('git', ['-C', git, 'show', `HEAD:${path}`], { encoding: 'utf8', maxBuffer: 1 << 26 });
        if (content.length <= MAX_BYTES) out.push({ name: `${repo}:${path}`, format, origin: 'public repositories', content });
      }
    }
  }
  if (PACKAGES) for (const path of walk(PACKAGES)) out.push({ name: path.slice(PACKAGES.length + 1), format: formatOf(path)!, origin: 'npm packages', content: readFileSync(path, 'utf8') });
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'mobile-bench-'));
const MANIFEST = '<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.judge"/>\n';
const FRAMEWORK = '/usr/share/android-framework-res/framework-res.apk';

/** Whether aapt compiles `xml` as the only resource file of an app (references to other files fail, so only what the source passes counts). */
function aaptCompiles(xml: string): boolean {
  const project = join(dir, 'aapt');
  rmSync(project, { recursive: true, force: true });
  mkdirSync(join(project, 'res', 'values'), { recursive: true });
  writeFileSync(join(project, 'AndroidManifest.xml'), MANIFEST);
  writeFileSync(join(project, 'res', 'values', 'strings.xml'), xml);
  try {
    execFileSync('aapt', ['package', '-f', '-M', join(project, 'AndroidManifest.xml'), '-S', join(project, 'res'), '-I', FRAMEWORK, '-F', join(project, 'out.apk')], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

/** Python's expat and translate-toolkit's Android reader over every (source, answer) pair in one process: [answer well-formed, as many units as the source's translatable ones (null when the source cannot be read)]. */
function pythonJudges(pairs: readonly (readonly [string, string])[]): [boolean, boolean | null][] {
  const program = `
import sys, json, xml.etree.ElementTree as E
from translate.storage import aresource
out = []
def units(path):
    # (Resources marked translatable="false" are left out of an answer: decision 0079.)
    try:
        with open(path, 'rb') as f:
            return len([u for u in aresource.AndroidResourceFile.parsestring(f.read()).units if u.xmlelement.get('translatable') != 'false'])
    except Exception:
        return None
for source, answer in json.load(sys.stdin):
    try:
        E.parse(answer)
        well = True
    except Exception:
        well = False
    before = units(source)
    out.append([well, None if before is None else units(answer) == before])
sys.stdout.write('\\n' + json.dumps(out) + '\\n')
`;
  const output = execFileSync('/usr/bin/python3', ['-c', program], { input: JSON.stringify(pairs), encoding: 'utf8', maxBuffer: 1 << 28 });
  return JSON.parse(output.trim().split('\n').at(-1)!) as [boolean, boolean | null][];
}

interface Row { files: number; refused: number; answers: number; exact: number; wellFormed: number; aaptJudged: number; aapt: number; toolkitJudged: number; toolkit: number; segments: number; ms: number; baselineMs: number; reasons: string[] }
const rows = new Map<string, Row>();
const aaptAvailable = existsSync(FRAMEWORK);
const pythonBatch: { row: Row; name: string; source: string; answer: string }[] = [];

const all = sources();
console.error(`${all.length} files`);
for (const [index, source] of all.entries()) {
  if (index % 50 === 0) console.error(`${index}/${all.length}`);
  const key = `${source.format} (${source.origin})`;
  const row = rows.get(key) ?? { files: 0, refused: 0, answers: 0, exact: 0, wellFormed: 0, aaptJudged: 0, aapt: 0, toolkitJudged: 0, toolkit: 0, segments: 0, ms: 0, baselineMs: 0, reasons: [] };
  rows.set(key, row);
  row.files++;
  let doc;
  let started = performance.now();
  try {
    doc = getAdapter(source.format).extract(source.content);
  } catch (error) {
    row.refused++;
    row.reasons.push(`${source.name}: ${(error as Error).message.slice(0, 100)}`);
    continue;
  }
  row.segments += doc.segments.length;
  const judgeStarted = performance.now();
  const sourceCompiles = source.format === 'android' && aaptAvailable ? aaptCompiles(source.content) : false;
  started += performance.now() - judgeStarted;
  const extracted = performance.now() - started;
  for (const target of TARGETS) {
    started = performance.now();
    const answer = pseudoRender(doc, target);
    row.ms += performance.now() - started + extracted / TARGETS.length;
    row.answers++;
    const problem = byteExactProblem(doc, target);
    if (!problem) row.exact++;
    else row.reasons.push(`${source.name} (${target.code}): not byte-exact at ${problem.at}`);
    if (source.format === 'arb') {
      // The same file read as generic JSON, the baseline of the speed ratio (same run, same machine load).
      const jsonStarted = performance.now();
      const json = getAdapter('json').extract(source.content);
      pseudoRender(json, target);
      row.baselineMs += performance.now() - jsonStarted;
      try {
        const parsed = JSON.parse(answer) as Record<string, unknown>;
        const keys = Object.keys(JSON.parse(source.content) as object).join('\n');
        const locale = typeof (JSON.parse(source.content) as Record<string, unknown>)['@@locale'] !== 'string' || parsed['@@locale'] === target.code.replaceAll('-', '_');
        if (Object.keys(parsed).join('\n') === keys && locale) row.wellFormed++;
        else row.reasons.push(`${source.name} (${target.code}): keys or @@locale differ`);
      } catch (error) {
        row.reasons.push(`${source.name} (${target.code}): JSON ${(error as Error).message.slice(0, 80)}`);
      }
      continue;
    }
    const n = pythonBatch.length;
    const sourceFile = join(dir, `${n}-source.xml`);
    const answerFile = join(dir, `${n}-answer.xml`);
    writeFileSync(sourceFile, source.content);
    writeFileSync(answerFile, answer);
    pythonBatch.push({ row, name: `${source.name} (${target.code})`, source: sourceFile, answer: answerFile });
    if (sourceCompiles) {
      row.aaptJudged++;
      if (aaptCompiles(answer)) row.aapt++;
      else row.reasons.push(`${source.name} (${target.code}): aapt refuses the answer`);
    }
  }
}
if (pythonBatch.length > 0) {
  const verdicts = pythonJudges(pythonBatch.map((item) => [item.source, item.answer] as const));
  pythonBatch.forEach((item, i) => {
    const [well, same] = verdicts[i]!;
    if (well) item.row.wellFormed++;
    else item.row.reasons.push(`${item.name}: not well-formed`);
    if (same !== null) {
      item.row.toolkitJudged++;
      if (same) item.row.toolkit++;
      else item.row.reasons.push(`${item.name}: translate-toolkit reads another number of units`);
    }
  });
}
rmSync(dir, { recursive: true, force: true });

console.log('| format (origin) | files | refused | answers (ar, ru) | byte-exact | valid (expat / JSON) | aapt compiles (of judged) | translate-toolkit same units (of judged) | segments | ms per answer | time ÷ generic json |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const [key, row] of [...rows].sort()) {
  const android = key.startsWith('android');
  console.log(
    `| ${key} | ${row.files} | ${row.refused} | ${row.answers} | ${row.exact} | ${row.wellFormed} | ${android ? `${row.aapt} / ${row.aaptJudged}` : '—'} | ${android ? `${row.toolkit} / ${row.toolkitJudged}` : '—'} | ${row.segments} | ${(row.ms / Math.max(1, row.answers)).toFixed(1)} | ${row.baselineMs > 0 ? (row.ms / row.baselineMs).toFixed(2) : '—'} |`,
  );
}
for (const [key, row] of rows) for (const reason of row.reasons.slice(0, 12)) console.log(`${key}: ${reason}`);
