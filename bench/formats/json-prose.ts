/**
 * Which JSON string values became segments, judged by eye: under pseudo a value wrongly
 * translated (or wrongly left alone) is still byte-exact, so the byte judge cannot see
 * it. Over every .json file under the given directories (by default the project's
 * node_modules and /usr/lib/node_modules: package manifests, locale files, message
 * catalogues), counts the segments whose value looks like something docs/contract.md §4 says is
 * not prose, the values left alone that look like sentences, and shows examples of each.
 *
 *   npx tsx bench/formats/json-prose.ts [dir ...] [--show N]
 *
 * The looks-like tests are independent of isProse (json.ts) on purpose; they are rough,
 * and a hit is a value to read, not necessarily a mistake. Run by hand; not in npm test.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { visit } from 'jsonc-parser';
import { getAdapter } from '../../src/formats/index.js';
import { filesUnder } from './files-under.js';

const MAX_BYTES = 4 * 1024 * 1024;

/** Rough shapes of values that are not prose (docs/contract.md §4), by name. */
const SUSPECT: Readonly<Record<string, RegExp>> = {
  'version or range': /^[\s^~<>=v*|.\dxX-]*\d[\s^~<>=v*|.\dxX-]*(?:-[\w.]+)?$|^[~^<>=]+\s*\d/,
  'identifier or path': /^(?=.*[_./:@#$-])(?=[^ ]*$)[\w./:@#$-]+$/,
  'markup left as text': /<\/?[A-Za-z0-9][\w.:-]*(?:\s[^<>]*)?\/?>/,
  'blob or hash': /[A-Za-z0-9+/=_-]{40,}/,
};
/** A value that reads as a sentence: three words or more, one of them four letters long. */
const SENTENCE = /^(?=.*\b[A-Za-z]{4,}\b)\S+(?:\s+\S+){2,}$/;

const walk = (dir: string): Generator<string> => filesUnder(dir, (_, name) => extname(name).toLowerCase() === '.json', 1000);

/** Every string value of a JSON document, in order (keys excluded). */
function stringValues(source: string): string[] {
  const values: string[] = [];
  visit(source, {
    onLiteralValue(value) {
      if (typeof value === 'string') values.push(value);
    },
  });
  return values;
}

function main(): void {
  const args = process.argv.slice(2);
  let show = 8;
  const roots: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--show') show = Number(args[++i]);
    else roots.push(args[i]!);
  }
  const dirs = roots.length > 0 ? roots : [join(import.meta.dirname, '..', '..', 'node_modules'), '/usr/lib/node_modules'];
  const json = getAdapter('json');

  let files = 0;
  let rejected = 0;
  let values = 0;
  let segments = 0;
  const hits = new Map<string, { count: number; examples: string[] }>();
  const hit = (kind: string, example: string) => {
    const entry = hits.get(kind) ?? { count: 0, examples: [] };
    hits.set(kind, entry);
    entry.count++;
    if (entry.examples.length < show) entry.examples.push(example);
  };
  for (const dir of dirs.filter((d) => existsSync(d))) {
    for (const file of walk(dir)) {
      const size = statSync(file).size;
      if (size === 0 || size > MAX_BYTES) continue;
      const source = readFileSync(file, 'utf8');
      let doc;
      try {
        doc = json.extract(source);
      } catch {
        rejected++;
        continue;
      }
      files++;
      const name = relative(process.cwd(), file);
      segments += doc.segments.length;
      // Each value on its own, as the document's reader sees it (same rules, same masking).
      for (const value of stringValues(source)) {
        values++;
        const segment = json.extract(JSON.stringify([value])).segments[0];
        const shown = `${name}: ${JSON.stringify(value).slice(0, 100)}`;
        if (!segment) {
          if (SENTENCE.test(value)) hit('left alone: reads as a sentence', shown);
          continue;
        }
        for (const [kind, pattern] of Object.entries(SUSPECT)) {
          const text = kind === 'markup left as text' ? segment.text.replace(/<\/?g\d+>|<x\d+\/>/g, ' ') : value;
          if (pattern.test(text)) hit(`segment: ${kind}`, kind === 'markup left as text' ? `${name}: ${JSON.stringify(segment.text).slice(0, 100)}` : shown);
        }
        if (/^[A-Za-z]+$/.test(value)) hit('segment: one word (prose by the contract; read for ids)', shown);
      }
    }
  }
  console.log(`${files} JSON files (${rejected} rejected as not JSON), ${values} string values, ${segments} segments\n`);
  for (const [kind, { count, examples }] of [...hits].sort()) {
    console.log(`${kind}: ${count}`);
    for (const example of examples) console.log(`  - ${example}`);
  }
}

main();
