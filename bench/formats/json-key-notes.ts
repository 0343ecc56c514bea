/**
 * The token cost of JSON key notes (issue 33, decision 0076): for real locale JSON files
 * nobody here wrote — the shared corpus's ARB and String Catalog files read as JSON
 * (`../shared/locale-corpus/`, or LOCALE_CORPUS) and the locale JSON of installed npm
 * packages (node_modules/…/locales|i18n|lang|translations/*.json) — the tokens of the
 * segment lines a prompt carries, and of the `notes:` entries the keys of short values
 * add (`"12": "key: checkout.pay_button"`, as engines/prompt.ts writes them). Before this
 * work a JSON prompt had no notes, so the ratio is the prompt's growth.
 *
 *   npx tsx bench/formats/json-key-notes.ts
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { getAdapter } from '../../src/formats/index.js';
import { countTokens } from '../../test/helpers/tokenizer.js';
import { filesUnder } from './files-under.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CORPUS = process.env.LOCALE_CORPUS ?? join(ROOT, '..', 'shared', 'locale-corpus');
const LOCALE_FOLDER = /\/(locales?|i18n|lang|translations)\/[^/]+\.json$/;

const walk = (dir: string): Generator<string> => filesUnder(dir, (path, name) => LOCALE_FOLDER.test(path) && name !== 'package.json', 10);

const groups = new Map<string, string[]>();
for (const folder of ['arb', 'xcstrings']) {
  const dir = join(CORPUS, folder);
  if (existsSync(dir)) groups.set(`corpus ${folder}`, readdirSync(dir).sort().map((name) => join(dir, name)));
}
for (const path of walk(join(ROOT, 'node_modules'))) {
  if (statSync(path).size > 1024 * 1024) continue;
  const name = `node_modules ${path.split('node_modules/').pop()!.split('/')[0]}`;
  groups.set(name, [...(groups.get(name) ?? []), path]);
}

console.log('| files | segments | with a key note | segment tokens | note tokens | prompt tokens after / before |');
console.log('|---|---:|---:|---:|---:|---:|');
const total = { segments: 0, noted: 0, text: 0, notes: 0 };
for (const [group, paths] of groups) {
  const row = { segments: 0, noted: 0, text: 0, notes: 0 };
  for (const path of paths) {
    let doc;
    try {
      doc = getAdapter('json').extract(readFileSync(path, 'utf8'));
    } catch {
      continue;
    }
    doc.segments.forEach((segment, i) => {
      row.segments++;
      row.text += countTokens(segment.text) + 1; // (its line break)
      if (segment.note) {
        row.noted++;
        row.notes += countTokens(`${JSON.stringify(String(i + 1))}: ${JSON.stringify(segment.note)}, `);
      }
    });
  }
  for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += row[key];
  console.log(`| ${group} (${paths.length}) | ${row.segments} | ${row.noted} | ${row.text} | ${row.notes} | ${((row.text + row.notes) / Math.max(1, row.text)).toFixed(3)} |`);
}
console.log(`| all | ${total.segments} | ${total.noted} | ${total.text} | ${total.notes} | ${((total.text + total.notes) / Math.max(1, total.text)).toFixed(3)} |`);
