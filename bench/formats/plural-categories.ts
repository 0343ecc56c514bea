/**
 * Counted forms in real locale files, judged from outside (CONTRACT §5 in each encoding):
 * every file of the shared corpus's po, yaml, android, arb, stringsdict and xcstrings folders
 * (and of PLURAL_BENCH_ROOTS, folders of fetched repositories) is sent to the built
 * service over HTTP (`serve`, embedded default, `pseudo`) into ar, ru, pl and ja, and each
 * answer's counted messages are read back with a reader that is not ours and compared with
 * what the language needs:
 *   - po: translate-toolkit's reader; each plural unit (obsolete `#~` ones are kept as they are) has exactly the target's gettext
 *     `nplurals` msgstr forms (GNU gettext's table: ar 6, ru 3, pl 3, ja 1), and msgfmt -c passes;
 *   - yaml: the `yaml` package; a source plural hash (keys all CLDR categories, with `other`)
 *     has exactly the target's CLDR categories, plus a source `zero`;
 *   - android: Python's expat; a `<plurals>` with `other` has the target's whole-number
 *     categories plus `other`;
 *   - stringsdict: Python's plistlib; a plural variable with `other` has the target's CLDR
 *     categories, plus a source `zero`;
 *   - xcstrings: JSON.parse; a source plural variation's target has the target's CLDR
 *     categories, plus a source `zero`;
 *   - arb: the FormatJS ICU parser; every plural argument has the target's CLDR categories
 *     (exact `=N` branches aside).
 * The categories are Intl.PluralRules' (CLDR); "whole-number" ones are those some integer
 * from 0 to 200 selects.
 *
 *   npm run build && npx tsx bench/formats/plural-categories.ts [--dir=.]
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { parse as parseIcu, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { isMap, parseDocument, type YAMLMap } from 'yaml';
import { freePort } from '../http/processes.js';
import { filesUnder } from './files-under.js';

const DIR = resolve(process.argv.find((a) => a.startsWith('--dir='))?.slice(6) ?? '.');
const CORPUS = process.env.LOCALE_CORPUS ?? join(import.meta.dirname, '..', '..', '..', 'shared', 'locale-corpus');
const ROOTS = (process.env.PLURAL_BENCH_ROOTS ?? '').split(':').filter(Boolean);
const TARGETS = ['ar', 'ru', 'pl', 'ja'] as const;
const GETTEXT_NPLURALS: Record<string, number> = { ar: 6, ru: 3, pl: 3, ja: 1 };
const ORDER = ['zero', 'one', 'two', 'few', 'many', 'other'];
const BY_EXTENSION: Record<string, string> = { '.po': 'po', '.yml': 'yaml', '.yaml': 'yaml', '.xml': 'android', '.arb': 'arb', '.stringsdict': 'stringsdict', '.xcstrings': 'xcstrings' };

const cldr = (code: string): string[] => new Intl.PluralRules(code).resolvedOptions().pluralCategories.slice().sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
const wholeNumber = (code: string): string[] => {
  const rules = new Intl.PluralRules(code);
  const found = new Set<string>(Array.from({ length: 201 }, (_, n) => rules.select(n)));
  found.add('other');
  return ORDER.filter((category) => found.has(category));
};
const sameSet = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x) => b.includes(x));
const python = (program: string, input: string): string => execFileSync('/usr/bin/python3', ['-c', program], { input, encoding: 'utf8', maxBuffer: 1 << 28 });

interface Judged {
  readonly messages: number;
  readonly wrong: string[];
}

/** The counted messages of a source, by a key the answer's reader finds again. */
type Judge = (source: string, answer: string, target: string) => Judged;

const judges: Record<string, Judge> = {
  po(_source, answer, target) {
    const dir = mkdtempSync(join(tmpdir(), 'plural-po-'));
    try {
      const file = join(dir, 'a.po');
      writeFileSync(file, answer);
      const wrong: string[] = [];
      try {
        execFileSync('msgfmt', ['-c', '-o', '/dev/null', file], { stdio: ['ignore', 'ignore', 'pipe'] });
      } catch (error) {
        wrong.push(`msgfmt -c: ${String((error as { stderr?: Buffer }).stderr ?? error).split('\n')[0]}`);
      }
      const counts = JSON.parse(python('import sys,json\nfrom translate.storage import pypo\nstore=pypo.pofile(sys.stdin.buffer.read())\nprint(json.dumps([len(u.target.strings) for u in store.units if u.hasplural() and not u.isheader() and not u.isobsolete()]))', answer)) as number[];
      counts.forEach((count, i) => { if (count !== GETTEXT_NPLURALS[target]) wrong.push(`plural unit ${i}: ${count} forms, ${target} needs ${GETTEXT_NPLURALS[target]}`); });
      return { messages: counts.length, wrong };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  yaml(source, answer, target) {
    const hashes: { path: (string | number)[]; zero: boolean }[] = [];
    const visit = (node: unknown, path: (string | number)[]): void => {
      if (!isMap(node)) return;
      const map = node as YAMLMap;
      const keys = map.items.map((pair) => String((pair.key as { value?: unknown })?.value ?? pair.key));
      if (keys.includes('other') && keys.every((key) => ORDER.includes(key))) hashes.push({ path, zero: keys.includes('zero') });
      else for (const pair of map.items) visit(pair.value, [...path, String((pair.key as { value?: unknown })?.value ?? pair.key)]);
    };
    visit(parseDocument(source).contents, []);
    const read = parseDocument(answer);
    const wrong: string[] = read.errors.map((error) => `yaml: ${error.message.split('\n')[0]}`);
    for (const hash of hashes) {
      // The root key is the language; it is the target's in the answer.
      const node = read.getIn([target, ...hash.path.slice(1)], true) ?? read.getIn(hash.path, true);
      const keys = isMap(node) ? (node as YAMLMap).items.map((pair) => String((pair.key as { value?: unknown })?.value)) : [];
      const expected = [...new Set([...(hash.zero ? ['zero'] : []), ...cldr(target)])];
      if (!sameSet(keys, expected)) wrong.push(`${hash.path.join('.')}: ${keys.join(',')} (needs ${expected.join(',')})`);
    }
    return { messages: hashes.length, wrong };
  },
  android(source, answer, target) {
    const program = "import sys,json,xml.etree.ElementTree as E\nr=E.fromstring(sys.stdin.buffer.read())\nprint(json.dumps({p.get('name'):[i.get('quantity') for i in p.findall('item')] for p in r.findall('plurals')}))";
    const before = JSON.parse(python(program, source)) as Record<string, string[]>;
    const after = JSON.parse(python(program, answer)) as Record<string, string[]>;
    const wrong: string[] = [];
    let messages = 0;
    for (const [name, quantities] of Object.entries(before)) {
      if (!quantities.includes('other') || new Set(quantities).size !== quantities.length) continue;
      messages++;
      if (!sameSet(after[name] ?? [], wholeNumber(target))) wrong.push(`${name}: ${(after[name] ?? []).join(',')} (needs ${wholeNumber(target).join(',')})`);
    }
    return { messages, wrong };
  },
  stringsdict(source, answer, target) {
    const program = "import sys,json,plistlib\nd=plistlib.loads(sys.stdin.buffer.read())\nout={}\nfor k,v in d.items():\n  for var,f in v.items():\n    if isinstance(f,dict) and f.get('NSStringFormatSpecTypeKey')=='NSStringPluralRuleType': out[k+'/'+var]=[c for c in f if not c.startswith('NS')]\nprint(json.dumps(out))";
    const before = JSON.parse(python(program, source)) as Record<string, string[]>;
    const after = JSON.parse(python(program, answer)) as Record<string, string[]>;
    const wrong: string[] = [];
    let messages = 0;
    for (const [name, forms] of Object.entries(before)) {
      if (!forms.includes('other')) continue;
      messages++;
      const expected = [...new Set([...(forms.includes('zero') ? ['zero'] : []), ...cldr(target)])];
      if (!sameSet(after[name] ?? [], expected)) wrong.push(`${name}: ${(after[name] ?? []).join(',')} (needs ${expected.join(',')})`);
    }
    return { messages, wrong };
  },
  xcstrings(source, answer, target) {
    type Catalog = { sourceLanguage: string; strings: Record<string, { localizations?: Record<string, { variations?: { plural?: Record<string, unknown> } }> }> };
    const before = JSON.parse(source) as Catalog;
    const after = JSON.parse(answer) as Catalog;
    const wrong: string[] = [];
    let messages = 0;
    for (const [key, entry] of Object.entries(before.strings)) {
      const plural = entry.localizations?.[before.sourceLanguage]?.variations?.plural;
      if (!plural || !('other' in plural)) continue;
      messages++;
      const got = Object.keys(after.strings[key]?.localizations?.[target]?.variations?.plural ?? {});
      const expected = [...new Set([...('zero' in plural ? ['zero'] : []), ...cldr(target)])];
      if (!sameSet(got, expected)) wrong.push(`${key}: ${got.join(',')} (needs ${expected.join(',')})`);
    }
    return { messages, wrong };
  },
  arb(_source, answer, target) {
    const wrong: string[] = [];
    let messages = 0;
    const visit = (elements: readonly MessageFormatElement[], key: string): void => {
      for (const element of elements) {
        if (element.type === TYPE.plural) {
          messages++;
          const categories = Object.keys(element.options).filter((option) => !option.startsWith('='));
          const expected = element.pluralType === 'ordinal' ? new Intl.PluralRules(target, { type: 'ordinal' }).resolvedOptions().pluralCategories : cldr(target);
          if (!sameSet(categories, expected)) wrong.push(`${key}: ${categories.join(',')} (needs ${expected.join(',')})`);
        }
        if (element.type === TYPE.plural || element.type === TYPE.select) for (const option of Object.values(element.options)) visit(option.value, key);
        if (element.type === TYPE.tag) visit(element.children, key);
      }
    };
    for (const [key, value] of Object.entries(JSON.parse(answer) as Record<string, unknown>)) {
      if (key.startsWith('@') || typeof value !== 'string') continue;
      try {
        visit(parseIcu(value, { ignoreTag: true }), key);
      } catch {
        // A value that is no ICU message in the source either (checked by the ARB bench) counts no message.
      }
    }
    return { messages, wrong };
  },
};

function inputs(): { path: string; format: string }[] {
  const out: { path: string; format: string }[] = [];
  for (const folder of ['po', 'yaml', 'android', 'arb', 'stringsdict', 'xcstrings']) {
    for (const name of readdirSync(join(CORPUS, folder)).sort()) out.push({ path: join(CORPUS, folder, name), format: folder });
  }
  for (const root of ROOTS) {
    for (const path of filesUnder(root, (_, name) => BY_EXTENSION[extname(name).toLowerCase()] !== undefined, 12)) {
      const format = BY_EXTENSION[extname(path).toLowerCase()]!;
      if (format === 'android' && !/\/values[^/]*\/strings\.xml$/.test(path)) continue;
      out.push({ path, format });
    }
  }
  return out;
}

const home = mkdtempSync(join(tmpdir(), 'plural-bench-'));
const env = { ...process.env, DATABASE_URL: `sqlite:${join(home, 'bench.db')}`, RATE_LIMIT_STORE: 'none', LOG_LEVEL: 'warn' };
const created = spawnSync(process.execPath, [join(DIR, 'dist/cli.js'), 'keys', 'create', '--tier', 'enterprise', '--json'], { env, encoding: 'utf8' });
if (created.status !== 0) throw new Error(`keys create failed (npm run build in ${DIR}?): ${created.stderr}`);
const { key } = JSON.parse(created.stdout) as { key: string };
const port = await freePort();
const server = spawn(process.execPath, [join(DIR, 'dist/cli.js'), 'serve', '--no-workers'], { env: { ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
const base = `http://127.0.0.1:${port}/v1`;
for (let i = 0; !(await fetch(`${base}/health`).then((r) => r.ok, () => false)); i++) {
  if (i > 600) throw new Error('the server did not start');
  await new Promise((done) => setTimeout(done, 100));
}

/**
 * POST /translate, sent again once when the kept-alive socket it went out on was closed:
 * the judges run synchronously, and on a loaded machine one can outlast the server's
 * keep-alive timeout, whose close the client only sees when it next writes.
 */
async function translate(body: string): Promise<Response> {
  const send = () => fetch(`${base}/translate`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
  try {
    return await send();
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw error;
    return send();
  }
}

const rows = new Map<string, { files: number; refused: number; answers: number; messages: number; wrongAnswers: number }>();
const failures: string[] = [];
try {
  for (const { path, format } of inputs()) {
    const source = readFileSync(path, 'utf8');
    const row = rows.get(format) ?? { files: 0, refused: 0, answers: 0, messages: 0, wrongAnswers: 0 };
    rows.set(format, row);
    row.files++;
    const response = await translate(JSON.stringify({ content: source, format, source: format === 'xcstrings' ? undefined : 'en', targets: TARGETS }));
    const body = (await response.json()) as { translations?: Record<string, string>; error?: { code?: string; message?: string } | string; message?: string };
    if (!response.ok || !body.translations) {
      row.refused++;
      failures.push(`${path}: ${response.status} ${JSON.stringify(body.error)} ${body.message ?? ''}`.slice(0, 300));
      continue;
    }
    for (const [language, text] of Object.entries(body.translations)) {
      row.answers++;
      const judged = judges[format]!(source, text, language);
      row.messages += judged.messages;
      if (judged.wrong.length > 0) {
        row.wrongAnswers++;
        failures.push(`${path} → ${language}: ${judged.wrong.slice(0, 3).join('; ')}`);
      }
    }
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((done) => server.once('exit', done));
  rmSync(home, { recursive: true, force: true });
}
console.table([...rows].map(([format, row]) => ({ format, files: row.files, refused: row.refused, answers: row.answers, 'counted messages judged': row.messages, 'answers with wrong forms': row.wrongAnswers })));
for (const failure of failures.slice(0, Number(process.env.PLURAL_BENCH_SHOW ?? 30))) console.log(failure);
