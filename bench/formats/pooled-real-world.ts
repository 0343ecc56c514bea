/**
 * The crossing to and from a document worker against documents nobody on the team wrote:
 * every file under the directories given whose name names a format (as `sync` reads it) is translated with
 * the pseudo engine into fr and ar twice — read and rendered on this thread, and in a
 * document worker, as the service does with any document over LARGE_DOCUMENT_CHARS (the
 * segments come back as columns, each target's translations go out as one; decision 0128) —
 * and the two must agree: the same segments, field for field, and the same answers, byte
 * for byte. real-world.ts and locale-real-world.ts judge the answers themselves against
 * the files; this judges only what the crossing could change.
 *
 *   npx tsx bench/formats/pooled-real-world.ts [dir ...]   (default: node_modules /usr/share/doc ../shared/locale-corpus)
 * Run by hand; not part of `npm test`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Format } from '../../src/formats/format.js';
import { formatFromExtension } from '../../src/localize/file-formats.js';
import { DocumentPool } from '../../src/translation/document-pool.js';
import { prepareDocument, translatePrepared } from '../../src/translation/translate-document.js';
import { pseudo } from '../../test/helpers/engines.js';
import { testTokenizer } from '../../test/helpers/tokenizer.js';
import { targets } from '../../test/translation/documents.js';

const MAX_BYTES = 1024 * 1024;
const dirs = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['node_modules', '/usr/share/doc', '../shared/locale-corpus'];

function* files(dir: string): Generator<[string, Format]> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) continue;
    if (stat.isDirectory()) yield* files(path);
    else if (stat.size > 0 && stat.size <= MAX_BYTES) {
      // The CLI's own reading of a file name (`sync`: Android's values*/ XML, .txt as plain),
      // and the locale corpus's Android files, named `NNN-project-strings.xml`.
      const format = formatFromExtension(path) ?? (path.endsWith('strings.xml') ? 'android' : undefined);
      if (format) yield [path, format];
    }
  }
}

const pool = new DocumentPool({ size: 2 });
const TARGETS = targets('fr', 'ar');

async function translate(content: string, format: Format, pooled: boolean) {
  const prepared = await prepareDocument(content, format, pooled ? { pool, largeDocumentChars: 0 } : { largeDocumentChars: Infinity });
  try {
    const { translations } = await translatePrepared({ prepared, targets: TARGETS, engine: pseudo(), tokenizer: testTokenizer });
    return { segments: prepared.segments, translations };
  } finally {
    prepared.release();
  }
}

const counts = new Map<Format, { files: number; refused: number; differ: number }>();
const differing: string[] = [];
for (const dir of dirs) {
  for (const [path, format] of files(dir)) {
    const count = counts.get(format) ?? { files: 0, refused: 0, differ: 0 };
    counts.set(format, count);
    const content = readFileSync(path, 'utf8');
    let inline;
    try {
      inline = await translate(content, format, false);
    } catch {
      count.refused++; // the adapter refuses it (JSON with comments, say): nothing crosses
      continue;
    }
    count.files++;
    const pooled = await translate(content, format, true);
    if (!isDeepStrictEqual(pooled, inline)) {
      count.differ++;
      differing.push(`${format} ${path}`);
    }
  }
}
await pool.close();

console.log('| format | files | pooled = inline | refused by the reader |');
console.log('|---|---:|---:|---:|');
for (const [format, { files, refused, differ }] of [...counts].sort()) console.log(`| ${format} | ${files} | ${files - differ} | ${refused} |`);
for (const line of differing.slice(0, 20)) console.log(`differs: ${line}`);
