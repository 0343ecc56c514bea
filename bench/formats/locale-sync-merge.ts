/**
 * `sync`'s entry-by-entry merge (decisions 0077, 0103) on real files nobody here wrote:
 * the shared corpus (`../shared/locale-corpus/`, or LOCALE_CORPUS) and the XLIFF and YAML
 * of installed packages (Debian's php-symfony-*, Ruby gems). For each file taken as a
 * source: its pseudo target written whole; then every third entry cut out of that target
 * (as sync removes entries the source no longer has; as if the source had gained them
 * back), the missing entries sent as sync sends them (the
 * source with the others cut out), and the answer merged back. Counted: files synced
 * whole (an entry with no place: a string in a YAML sequence, a multi-segment unit),
 * merges that read back with every entry, and merges byte for byte the target written
 * whole (what a merge cannot know: the blank lines and comments around a cut entry).
 *
 *   npx tsx bench/formats/locale-sync-merge.ts
 */
import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Format } from '../../src/formats/format.js';
import { getAdapter } from '../../src/formats/index.js';
import { entryLayout, mergeEntries, noEntries, partialDocument, readEntryFile } from '../../src/localize/entry-files.js';
import { pseudoRender } from '../../test/formats/helpers.js';
import { filesUnder } from './files-under.js';

const CORPUS = process.env.LOCALE_CORPUS ?? join(import.meta.dirname, '..', '..', '..', 'shared', 'locale-corpus');
const BY_EXTENSION: Readonly<Record<string, Format>> = { '.yml': 'yaml', '.yaml': 'yaml', '.xlf': 'xliff', '.xliff': 'xliff' };
const ROOTS = [CORPUS, '/usr/share/php/Symfony', '/usr/share/rubygems-integration'];
const TARGET = { code: 'ru', rtl: false };
const MAX_BYTES = 1024 * 1024;

interface Row { files: number; unreadable: number; whole: number; merged: number; exact: number; failed: string[]; differ: string[] }
const rows = new Map<Format, Row>();
const row = (format: Format): Row => rows.get(format) ?? rows.set(format, { files: 0, unreadable: 0, whole: 0, merged: 0, exact: 0, failed: [], differ: [] }).get(format)!;

for (const root of ROOTS) {
  for (const path of filesUnder(root, (_, name) => BY_EXTENSION[extname(name).toLowerCase()] !== undefined, 12)) {
    const format = BY_EXTENSION[extname(path).toLowerCase()]!;
    const source = readFileSync(path, 'utf8');
    if (source.length > MAX_BYTES) continue;
    const r = row(format);
    r.files++;
    let sourceEntries;
    let whole: string;
    try {
      sourceEntries = readEntryFile(format, source);
      whole = pseudoRender(getAdapter(format).extract(source), TARGET);
    } catch {
      r.unreadable++;
      continue;
    }
    if (sourceEntries === undefined) {
      r.whole++;
      continue;
    }
    try {
      const order = [...sourceEntries.keys()];
      const wholeEntries = readEntryFile(format, whole)!;
      const missing = order.filter((_, i) => i % 3 === 1);
      // (Cut as sync cuts a removed entry: with a mapping it leaves empty.)
      const target = mergeEntries(whole, wholeEntries, '', noEntries(format), order, [], missing, entryLayout(format));
      const targetEntries = readEntryFile(format, target)!;
      const answer = pseudoRender(getAdapter(format).extract(partialDocument(source, sourceEntries, new Set(missing))), TARGET);
      const merged = mergeEntries(target, targetEntries, answer, readEntryFile(format, answer)!, order, missing, [], entryLayout(format));
      const read = readEntryFile(format, merged);
      if (read === undefined || order.some((key) => !read.has(key))) throw new Error('entries lost');
      r.merged++;
      if (merged === whole) r.exact++;
      else r.differ.push(path);
    } catch (error) {
      r.failed.push(`${path}: ${(error as Error).message.split('\n')[0]}`);
    }
  }
}

console.log('| format | files | unreadable | synced whole | merged, every entry back | of which byte for byte the whole target | failed |');
console.log('|---|---|---|---|---|---|---|');
for (const [format, r] of rows) console.log(`| ${format} | ${r.files} | ${r.unreadable} | ${r.whole} | ${r.merged} | ${r.exact} | ${r.failed.length} |`);
for (const r of rows.values()) for (const failure of r.failed.slice(0, 10)) console.log(`failed: ${failure}`);
for (const r of rows.values()) for (const path of r.differ.slice(0, 10)) console.log(`not byte for byte: ${path}`);
