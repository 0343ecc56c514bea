/**
 * The format layer against documents nobody on the team wrote: every markdown, JSON and
 * HTML file under a directory (by default this project's node_modules — hundreds of
 * READMEs, changelogs, package manifests and locale files from other people).
 *
 *   npx tsx bench/formats/real-world.ts [dir ...] [--show N] [--only CHECK] [--format F]
 *
 * Per file, with the format its extension names:
 *  - identity:  extract + identity render returns the file byte for byte;
 *  - bytes:     a pseudo translation (LTR and RTL) with the pseudo marks removed is the
 *               file byte for byte, but for html lang/dir and escapes decoded inside
 *               translated text (test/formats/byte-exact.ts; docs/formats.md);
 *  - structure: a pseudo translation (LTR and RTL) keeps the structure — the markdown
 *               node tree minus text, the JSON value minus prose, the HTML tag sequence;
 *  - detection: detectFormat without a hint names the same format (a .md file without
 *               any markdown syntax, a LICENSE.md, is right to come back plain);
 *  - references: (json) every character reference of a string value comes back as it was;
 *  - untranslated: (html) no text a reader is shown is left in plain ASCII words
 *               (test/formats/document-kinds.ts: the two things the byte check cannot see).
 * The files are also counted by the kinds that broke after the byte check passed
 * (issue 31): i18n catalogs, Texinfo manuals, READMEs with HTML blocks; the table names
 * the folders each kind was read from.
 * A file the adapter rejects (JSON with comments, say) is counted apart, not as a failure.
 * Run by hand; it is not part of `npm test` (the set of files changes with the lockfile).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { detectFormat } from '../../src/formats/detect.js';
import type { Format } from '../../src/formats/format.js';
import { getAdapter } from '../../src/formats/index.js';
import { identityRender, LTR, pseudoRender, RTL, unpseudo } from '../../test/formats/helpers.js';
import { byteExactProblem } from '../../test/formats/byte-exact.js';
import { htmlShape, markdownShape } from '../../test/formats/structure.js';
import { documentKind, referencesProblem, untranslatedTextProblem } from '../../test/formats/document-kinds.js';
import type { DocumentKind } from '../../test/formats/document-kinds.js';

const FORMAT_BY_EXTENSION: Record<string, Format> = {
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.json': 'json',
  '.html': 'html',
  '.htm': 'html',
};
const MAX_BYTES = 4 * 1024 * 1024;

type Check = 'identity' | 'bytes' | 'structure' | 'detection' | 'references' | 'untranslated';
interface Failure {
  readonly file: string;
  readonly check: Check;
  readonly detail: string;
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile() && FORMAT_BY_EXTENSION[extname(entry.name).toLowerCase()]) yield path;
  }
}

/** The JSON value with every string replaced by its pseudo inverse. */
function jsonShape(source: string): unknown {
  return JSON.parse(source, (_key, value: unknown) => (typeof value === 'string' ? unpseudo(value) : value));
}

function structureProblem(format: Format, source: string, output: string): string | undefined {
  const same = (a: unknown, b: unknown) => isDeepStrictEqual(a, b);
  if (format === 'markdown' && !same(markdownShape(output), markdownShape(source))) return 'markdown node tree changed';
  if (format === 'json' && !same(jsonShape(output), jsonShape(source))) return 'JSON structure or non-prose value changed';
  if (format === 'html' && !same(htmlShape(output, { ignoreDir: true }), htmlShape(source, { ignoreDir: true }))) {
    return 'HTML tag sequence changed';
  }
  return undefined;
}

function main(): void {
  const args = process.argv.slice(2);
  let show = 20;
  let only: string | undefined;
  let onlyFormat: string | undefined;
  const roots: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--show') show = Number(args[++i]);
    else if (args[i] === '--only') only = args[++i];
    else if (args[i] === '--format') onlyFormat = args[++i];
    else roots.push(args[i]!);
  }
  const dirs = roots.length > 0 ? roots : [join(import.meta.dirname, '..', '..', 'node_modules')];

  const stats = new Map<Format, { files: number; bytes: number; ms: number; rejected: number; failed: number; inexact: number; segments: number; plainMarkdown: number }>();
  const failures: Failure[] = [];
  const rejected: string[] = [];
  const kinds = new Map<DocumentKind, { files: number; inexact: number; failed: number; folders: Set<string> }>();
  for (const dir of dirs) {
    for (const file of walk(dir)) {
      const size = statSync(file).size;
      if (size === 0 || size > MAX_BYTES) continue;
      const format = FORMAT_BY_EXTENSION[extname(file).toLowerCase()]!;
      if (onlyFormat && format !== onlyFormat) continue;
      const content = readFileSync(file, 'utf8');
      const name = relative(process.cwd(), file);
      const stat = stats.get(format) ?? { files: 0, bytes: 0, ms: 0, rejected: 0, failed: 0, inexact: 0, segments: 0, plainMarkdown: 0 };
      stats.set(format, stat);
      stat.files++;
      stat.bytes += size;
      const fileFailures: Failure[] = [];
      try {
        const started = performance.now();
        const doc = getAdapter(format).extract(content);
        const identity = identityRender(doc, { code: /<html[^>]*\slang="([^"]+)"/i.exec(content)?.[1] ?? 'fr', rtl: false });
        stat.ms += performance.now() - started;
        stat.segments += doc.segments.length;
        if (identity !== content) fileFailures.push({ file: name, check: 'identity', detail: firstDifference(content, identity) });
        for (const target of [LTR, RTL]) {
          const difference = byteExactProblem(doc, target);
          if (difference) {
            stat.inexact++;
            fileFailures.push({
              file: name,
              check: 'bytes',
              detail: `${target.code} at ${difference.at}: expected ${JSON.stringify(difference.expected)}, got ${JSON.stringify(difference.actual)}`,
            });
            break;
          }
        }
        for (const target of [LTR, RTL]) {
          const problem = structureProblem(format, content, pseudoRender(doc, target));
          if (problem) {
            fileFailures.push({ file: name, check: 'structure', detail: `${target.code}: ${problem}` });
            break;
          }
        }
        if (format === 'json') {
          const problem = referencesProblem(content, pseudoRender(doc, LTR));
          if (problem) fileFailures.push({ file: name, check: 'references', detail: problem });
        } else if (format === 'html') {
          const problem = untranslatedTextProblem(pseudoRender(doc, LTR));
          if (problem) fileFailures.push({ file: name, check: 'untranslated', detail: problem });
        }
      } catch (error) {
        if ((error as { code?: string }).code === 'invalid_request') {
          stat.rejected++;
          rejected.push(`${name}: ${(error as Error).message}`);
          continue;
        }
        fileFailures.push({ file: name, check: 'identity', detail: `threw: ${(error as Error).message}` });
      }
      const detected = detectFormat(content).format;
      if (detected === 'plain' && format === 'markdown' && onlyParagraphs(content)) stat.plainMarkdown++;
      else if (detected !== format) fileFailures.push({ file: name, check: 'detection', detail: `detected ${detected}` });
      if (fileFailures.length > 0) stat.failed++;
      failures.push(...fileFailures);
      const kind = documentKind(format, file, content);
      const counted = kinds.get(kind) ?? { files: 0, inexact: 0, failed: 0, folders: new Set<string>() };
      kinds.set(kind, counted);
      counted.files++;
      if (fileFailures.some((f) => f.check === 'bytes')) counted.inexact++;
      if (fileFailures.some((f) => f.check !== 'detection')) counted.failed++;
      counted.folders.add(relative(process.cwd(), dirname(file)));
    }
  }

  console.log('| format | files | MiB | rejected as invalid | byte-exact | files with a failure | no syntax, detected plain | segments | extract + render MiB/s |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const [format, s] of stats) {
    const mib = s.bytes / 1024 / 1024;
    const judged = s.files - s.rejected;
    const exact = `${judged - s.inexact}/${judged} (${((100 * (judged - s.inexact)) / Math.max(1, judged)).toFixed(1)}%)`;
    console.log(`| ${format} | ${s.files} | ${mib.toFixed(2)} | ${s.rejected} | ${exact} | ${s.failed} | ${s.plainMarkdown} | ${s.segments} | ${(mib / (s.ms / 1000)).toFixed(1)} |`);
  }
  console.log('\n| kind | files | byte-exact | files failing a check but detection | read from |');
  console.log('|---|---:|---:|---:|---|');
  for (const [kind, k] of [...kinds].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const folders = kind === 'other' ? '' : folderSummary(k.folders);
    console.log(`| ${kind} | ${k.files} | ${k.files - k.inexact}/${k.files} | ${k.failed} | ${folders} |`);
  }
  const byCheck = new Map<Check, number>();
  for (const failure of failures) byCheck.set(failure.check, (byCheck.get(failure.check) ?? 0) + 1);
  console.log(`\nfailures by check: ${[...byCheck].map(([check, n]) => `${check} ${n}`).join(', ') || 'none'}`);
  if (rejected.length > 0) console.log(`\nrejected:\n${rejected.slice(0, show).map((line) => `- ${line}`).join('\n')}`);
  for (const failure of failures.filter((f) => !only || f.check === only).slice(0, show)) console.log(`- [${failure.check}] ${failure.file}: ${failure.detail}`);
  if (failures.length > 0) process.exitCode = 1;
}

/** The folders a kind was read from, by their package or manual (`node_modules/yargs`, `/usr/share/doc/gettext`), with counts. */
function folderSummary(folders: Set<string>): string {
  const roots = new Map<string, number>();
  for (const folder of folders) {
    const parts = folder.split('/');
    const at = parts.lastIndexOf('node_modules');
    const doc = parts.indexOf('doc');
    const root = at >= 0 ? parts.slice(0, at + (parts[at + 1]?.startsWith('@') ? 3 : 2)).join('/') : doc >= 0 ? parts.slice(0, doc + 2).join('/') : folder;
    roots.set(root, (roots.get(root) ?? 0) + 1);
  }
  return [...roots.keys()].sort().join(', ');
}

/** A markdown file with no markdown syntax (a LICENSE.md): plain is the right answer for it. */
function onlyParagraphs(content: string): boolean {
  return markdownShape(content).every((node) => node === 'root' || node === 'paragraph');
}

function firstDifference(expected: string, actual: string): string {
  let i = 0;
  while (i < expected.length && expected[i] === actual[i]) i++;
  return `first difference at ${i}: expected ${JSON.stringify(expected.slice(i, i + 40))}, got ${JSON.stringify(actual.slice(i, i + 40))}`;
}

main();
