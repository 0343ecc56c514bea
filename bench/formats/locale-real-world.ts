/**
 * The locale formats on real files nobody here wrote (issue 33): the shared corpus
 * (`../shared/locale-corpus/`, or LOCALE_CORPUS) and files installed on the machine
 * (gettext-doc's catalogs; the XLIFF catalogs of Debian's php-symfony-* packages; the
 * Rails locale YAML of Ruby gems such as ruby-doorkeeper-i18n; the `.properties` inside
 * the jars of /usr/share/java, read with `unzip -p`; other `.properties`/`.yml`/`.xlf`
 * under /usr/share and node_modules). For each file: read or refused (the reason),
 * byte-exact under pseudo for ru and ar (test/formats/byte-exact.ts), and for the
 * right-to-left answer valid by the format's own tool (msgfmt -c;
 * Java's Properties.load; the yaml package; Python's expat), and translate-toolkit's
 * reader as a second judge (it must read as many units from the answer as from the
 * source). Also the token cost of the notes that reach the model (docs/models.md).
 *
 * LOCALE_BENCH_ROOTS (folders joined by `:`) adds the locale files of public repositories
 * fetched for reading, one folder per repository (kept outside this repository), on rows
 * "(public repositories)": per repository at most LOCALE_BENCH_ROOT_CAP files of each format
 * (default 200), taken evenly across the sorted list so that every language is not needed to
 * reach them all.
 *
 *   npx tsx bench/formats/locale-real-world.ts
 *   LOCALE_BENCH_INSTALLED=0 LOCALE_BENCH_ROOTS=/tmp/locale-repos/a:/tmp/locale-repos/b npx tsx bench/formats/locale-real-world.ts
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { parse } from 'yaml';
import type { Format } from '../../src/formats/format.js';
import { getAdapter } from '../../src/formats/index.js';
import { countTokens } from '../../test/helpers/tokenizer.js';
import { byteExactProblem } from '../../test/formats/byte-exact.js';
import { pseudoRender } from '../../test/formats/helpers.js';
import { filesUnder } from './files-under.js';

const CORPUS = process.env.LOCALE_CORPUS ?? join(import.meta.dirname, '..', '..', '..', 'shared', 'locale-corpus');
const BY_EXTENSION: Readonly<Record<string, Format>> = { '.po': 'po', '.pot': 'po', '.properties': 'properties', '.yml': 'yaml', '.yaml': 'yaml', '.xlf': 'xliff', '.xliff': 'xliff' };
const INSTALLED = process.env.LOCALE_BENCH_INSTALLED !== '0';
const INSTALLED_ROOTS = INSTALLED ? ['/usr/share/doc/gettext/examples', '/usr/share', join(import.meta.dirname, '..', '..', 'node_modules')] : [];
/** Folders of installed packages counted on their own row, every file in them (not capped). */
const PACKAGE_SOURCES: readonly { prefix: string; origin: string }[] = [
  { prefix: '/usr/share/php/Symfony/', origin: 'php-symfony-*, Debian' },
  { prefix: '/usr/share/rubygems-integration/', origin: 'Ruby gems, Debian' },
];
const REPOSITORY_ROOTS = (process.env.LOCALE_BENCH_ROOTS ?? '').split(':').filter((root) => root !== '');
const PER_FORMAT_PER_REPOSITORY = Number(process.env.LOCALE_BENCH_ROOT_CAP ?? 200);
/** A repository's files up to the API's body limit (BODY_LIMIT_BYTES in src/http/app.ts): Angular's whole-app catalogs pass 1 MiB. */
const REPOSITORY_MAX_BYTES = 2 * 1024 * 1024;
const JARS = '/usr/share/java';
const MAX_BYTES = 1024 * 1024;
const PER_FORMAT_INSTALLED = 60;
const TARGET = { code: 'ar', rtl: true };
// Byte-exactness is judged for a left-to-right and a right-to-left target; validity on the right-to-left answer.
const EXACT_TARGETS = [{ code: 'ru', rtl: false }, TARGET];

const walk = (dir: string): Generator<string> => filesUnder(dir, (_, name) => BY_EXTENSION[extname(name).toLowerCase()] !== undefined, 12);

/** A locale-looking YAML file (a root language key, or under a locales/ or translations/ folder). */
const looksLikeLocaleYaml = (path: string, text: string): boolean => /\/(locales?|translations|i18n|lang)\//.test(path) || /^[a-z]{2}(?:[-_][A-Za-z]{2})?:\s*$/m.test(text.slice(0, 2000));

interface Input { path: string; format: Format; origin: string; read?: () => string }

/** Every `.properties` entry inside the jars of /usr/share/java (symlinked names skipped), read in place by unzip. */
function jarProperties(): Input[] {
  const out: Input[] = [];
  let names: string[];
  try {
    names = readdirSync(JARS).filter((name) => name.endsWith('.jar')).sort();
  } catch {
    return out;
  }
  for (const name of names) {
    const jar = join(JARS, name);
    if (lstatSync(jar).isSymbolicLink()) continue;
    let entries: string[];
    try {
      entries = execFileSync('unzip', ['-Z1', jar], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 26 }).split('\n');
    } catch {
      continue;
    }
    for (const entry of entries.filter((item) => item.endsWith('.properties')))
      out.push({ path: `${jar}!/${entry}`, format: 'properties', origin: 'jars in /usr/share/java, Debian', read: () => execFileSync('unzip', ['-p', jar, entry], { encoding: 'utf8', maxBuffer: 1 << 26 }) });
  }
  return out;
}

/** At most `cap` of `items`, spread evenly over them (a repository's languages sort together). */
const evenly = <T>(items: readonly T[], cap: number): T[] => (items.length <= cap ? [...items] : Array.from({ length: cap }, (_, i) => items[Math.floor((i * items.length) / cap)]!));

/** The locale files of each repository folder, capped per format. */
function repositoryFiles(): Input[] {
  const out: Input[] = [];
  for (const root of REPOSITORY_ROOTS) {
    const byFormat = new Map<Format, string[]>();
    for (const path of walk(root)) {
      if (statSync(path).size > REPOSITORY_MAX_BYTES) continue;
      const format = BY_EXTENSION[extname(path).toLowerCase()]!;
      if (format === 'yaml' && !looksLikeLocaleYaml(path, readFileSync(path, 'latin1'))) continue;
      byFormat.set(format, [...(byFormat.get(format) ?? []), path]);
    }
    for (const [format, paths] of byFormat) for (const path of evenly(paths.sort(), PER_FORMAT_PER_REPOSITORY)) out.push({ path, format, origin: 'public repositories' });
  }
  return out;
}

function files(): Input[] {
  const out: Input[] = [];
  for (const folder of ['po', 'properties', 'yaml', 'xliff']) {
    const dir = join(CORPUS, folder);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) out.push({ path: join(dir, name), format: BY_EXTENSION[extname(name).toLowerCase()] ?? (folder as Format), origin: 'corpus' });
  }
  const seen = new Set<string>();
  const counts: Partial<Record<Format, number>> = {};
  for (const root of INSTALLED_ROOTS) {
    for (const path of walk(root)) {
      if (seen.has(path) || statSync(path).size > MAX_BYTES) continue;
      seen.add(path);
      const format = BY_EXTENSION[extname(path).toLowerCase()]!;
      const fromPackage = PACKAGE_SOURCES.find((source) => path.startsWith(source.prefix));
      if (fromPackage) {
        if (format !== 'yaml' || looksLikeLocaleYaml(path, readFileSync(path, 'latin1'))) out.push({ path, format, origin: fromPackage.origin });
        continue;
      }
      if ((counts[format] ?? 0) >= PER_FORMAT_INSTALLED) continue;
      const text = readFileSync(path, 'latin1');
      if (format === 'po' && !/charset=(?:UTF-8|ASCII|CHARSET)\b/i.test(text)) continue;
      if (format === 'yaml' && !looksLikeLocaleYaml(path, text)) continue;
      counts[format] = (counts[format] ?? 0) + 1;
      out.push({ path, format, origin: 'installed' });
    }
  }
  if (INSTALLED) out.push(...jarProperties());
  out.push(...repositoryFiles());
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'locale-bench-'));
interface Row { files: number; refused: number; exact: number; valid: number; judged: number; toolkit: number; segments: number; noteTokens: number; textTokens: number; reasons: string[] }
const rows = new Map<string, Row>();
let written = 0;
const javaBatch: { row: Row; source: string; answer: string }[] = [];
const toolkitBatch: { row: Row; source: string; answer: string; format: Format; name: string }[] = [];

for (const { path, format, origin, read } of files()) {
  const key = `${format} (${origin})`;
  const row = rows.get(key) ?? { files: 0, refused: 0, exact: 0, valid: 0, judged: 0, toolkit: 0, segments: 0, noteTokens: 0, textTokens: 0, reasons: [] };
  rows.set(key, row);
  row.files++;
  const content = read ? read() : readFileSync(path, 'utf8');
  let doc;
  try {
    doc = getAdapter(format).extract(content);
  } catch (error) {
    row.refused++;
    row.reasons.push(`${path.split('/').pop()}: ${(error as Error).message.slice(0, 90)}`);
    continue;
  }
  row.segments += doc.segments.length;
  const notes = new Set<string>();
  for (const segment of doc.segments) {
    row.textTokens += countTokens(segment.text);
    if (segment.note) notes.add(segment.note);
  }
  row.noteTokens += [...notes].reduce((sum, note) => sum + countTokens(note) + 4, 0);
  const answer = pseudoRender(doc, TARGET);
  const inexact = EXACT_TARGETS.map((target) => byteExactProblem(doc, target)).find((problem) => problem);
  if (inexact) row.reasons.push(`${path.split('/').pop()}: not byte-exact at ${inexact.at}: expected ${JSON.stringify(inexact.expected)}, got ${JSON.stringify(inexact.actual)}`);
  else row.exact++;
  const n = ++written;
  const source = join(dir, `${format}-${n}-src${extname(path)}`);
  const out = join(dir, `${format}-${n}-out${extname(path)}`);
  writeFileSync(source, content);
  writeFileSync(out, answer);
  if (format === 'po') {
    try {
      execFileSync('msgfmt', ['-c', '-o', '/dev/null', out], { stdio: 'pipe' });
      row.valid++;
    } catch (error) {
      row.reasons.push(`${path.split('/').pop()}: msgfmt ${String((error as { stderr?: Buffer }).stderr).split('\n')[0]!.slice(0, 100)}`);
    }
    row.judged++;
  } else if (format === 'yaml') {
    try {
      parse(answer, { uniqueKeys: false });
      row.valid++;
    } catch (error) {
      row.reasons.push(`${path.split('/').pop()}: yaml ${(error as Error).message.slice(0, 90)}`);
    }
    row.judged++;
  } else if (format === 'xliff') {
    try {
      execFileSync('python3', ['-c', 'import sys,xml.etree.ElementTree as E; E.parse(sys.argv[1])', out], { stdio: 'pipe' });
      row.valid++;
    } catch {
      row.reasons.push(`${path.split('/').pop()}: not well-formed`);
    }
    row.judged++;
  } else javaBatch.push({ row, source, answer: out });
  toolkitBatch.push({ row, source, answer: out, format, name: path.split('/').pop()! });
}

// Java's Properties.load over every properties pair in one JVM: the answer must have the source's keys.
if (javaBatch.length > 0) {
  const program = join(import.meta.dirname, '..', '..', 'test', 'helpers', 'PropertiesLoad.java');
  const read = execFileSync('java', [program, ...javaBatch.flatMap((item) => [item.source, item.answer])], { encoding: 'utf8', maxBuffer: 1 << 28 }).trim().split('\n');
  javaBatch.forEach((item, i) => {
    const source = Object.keys(JSON.parse(read[2 * i]!) as object);
    const answer = Object.keys(JSON.parse(read[2 * i + 1]!) as object);
    item.row.judged++;
    if (source.join('\n') === answer.join('\n')) item.row.valid++;
  });
}

// translate-toolkit (Debian's translate-toolkit, for Debian's own python3), a second reader: same number of units.
const toolkit = `
import sys, json
from translate.storage import factory
pairs = json.load(sys.stdin)
out = []
for source, answer, fmt in pairs:
    try:
        def units(path):
            if fmt == 'properties':
                from translate.storage import properties
                store = properties.javautf8file.parsefile(path)
            elif fmt == 'yaml':
                from translate.storage import yaml
                store = yaml.RubyYAMLFile.parsefile(path)
            else:
                store = factory.getobject(path)
            return len([u for u in store.units if not u.isheader()])
        out.append(units(source) == units(answer))
    except Exception as e:
        out.append(None)
print(json.dumps(out))
`;
let toolkitAvailable = true;
try {
  const verdicts = JSON.parse(
    execFileSync('/usr/bin/python3', ['-c', toolkit], { input: JSON.stringify(toolkitBatch.map((item) => [item.source, item.answer, item.format])), encoding: 'utf8', maxBuffer: 1 << 26 }),
  ) as (boolean | null)[];
  toolkitBatch.forEach((item, i) => {
    if (verdicts[i] === true) item.row.toolkit++;
    else item.row.reasons.push(`${item.name}: translate-toolkit ${verdicts[i] === false ? 'reads a different number of units from the answer' : 'reads neither file'}`);
  });
} catch {
  toolkitAvailable = false;
}
rmSync(dir, { recursive: true, force: true });

console.log(`byte-exact for ${EXACT_TARGETS.map((target) => target.code).join(' and ')}; judged on ${TARGET.code}; translate-toolkit ${toolkitAvailable ? 'ran' : 'not available'}\n`);
console.log('| format (origin) | files | refused (400/422) | byte-exact | valid by its tool | same units for translate-toolkit | segments | note tokens / text tokens |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const [key, row] of [...rows].sort()) {
  const read = row.files - row.refused;
  console.log(`| ${key} | ${row.files} | ${row.refused} | ${row.exact}/${read} | ${row.valid}/${row.judged} | ${row.toolkit}/${read} | ${row.segments} | ${row.noteTokens} / ${row.textTokens} (${((100 * row.noteTokens) / Math.max(1, row.textTokens)).toFixed(1)} %) |`);
}
for (const [key, row] of rows) for (const reason of row.reasons.slice(0, 6)) console.log(`- ${key}: ${reason}`);
