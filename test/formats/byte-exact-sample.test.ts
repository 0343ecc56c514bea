/**
 * Byte-exact under pseudo (docs/formats.md), judged by test/formats/byte-exact.ts on a
 * fixed sample of real documents nobody here wrote: markdown and JSON from the installed
 * packages, HTML from Debian's documentation (/usr/share/doc) and the packages. The files
 * are read where they are installed, never copied into the repository.
 *
 * The sample is deterministic for a given set of installed files: paths sorted, shuffled
 * with a fixed seed, then the first SAMPLE[format] documents of each format that the
 * adapter accepts (a JSON file with comments is not JSON) and that are at most
 * MAX_BYTES. Each document is one test, judged for a left-to-right and a right-to-left
 * target; a failure names the file and the first difference.
 *
 * Beside the per-format sample, the kinds of document that broke after the byte check
 * passed (issue 31: i18n catalogs, Texinfo manuals, READMEs with HTML blocks;
 * test/formats/document-kinds.ts) each get KIND_SAMPLE documents of their own, drawn the
 * same way. Every sampled document is also held to the two judgements the byte check
 * cannot make: JSON character references kept, no HTML text left untranslated.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import type { Format } from '../../src/formats/format.js';
import { getAdapter } from '../../src/formats/index.js';
import { byteExactProblem } from './byte-exact.js';
import { documentKind, referencesProblem, untranslatedTextProblem } from './document-kinds.js';
import type { DocumentKind } from './document-kinds.js';
import { LTR, pseudoRender, RTL } from './helpers.js';

const PROJECT = join(import.meta.dirname, '..', '..');
const ROOTS = [join(PROJECT, 'node_modules'), '/usr/lib/node_modules', '/usr/share/doc'];
const FORMAT_BY_EXTENSION: Readonly<Record<string, Format>> = {
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.json': 'json',
  '.html': 'html',
  '.htm': 'html',
};
const SAMPLE: Readonly<Partial<Record<Format, number>>> = { markdown: 60, json: 60, html: 45 };
/** Documents of each kind that broke after the byte check passed, beyond the per-format sample. */
const KIND_SAMPLE: Readonly<Record<Exclude<DocumentKind, 'other'>, number>> = {
  'i18n catalog': 20,
  'Texinfo manual': 15,
  'README with HTML blocks': 20,
};
const MAX_BYTES = 256 * 1024;
const SEED = 20261124;

function* walk(dir: string): Generator<string> {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // (unreadable)
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile() && FORMAT_BY_EXTENSION[extname(entry.name).toLowerCase()]) yield path;
  }
}

/** mulberry32: a small seeded generator, so the shuffle is the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

interface Sampled {
  /** `node_modules/…` for the project's packages, else the absolute path: the same wherever the project is checked out. */
  readonly name: string;
  readonly path: string;
  readonly format: Format;
  readonly content: string;
}

/** The sample: per format, the first accepted documents of the shuffled, sorted paths; then per kind (KIND_SAMPLE), as many more. */
function sample(): Map<Format | DocumentKind, Sampled[]> {
  const named = ROOTS.filter((root) => existsSync(root))
    .flatMap((root) => [...walk(root)])
    .map((path) => ({ path, name: path.startsWith(PROJECT) ? relative(PROJECT, path) : path }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  htmlFiles = named.filter(({ path }) => FORMAT_BY_EXTENSION[extname(path).toLowerCase()] === 'html').length;
  const next = seeded(SEED);
  const byFormat = new Map<Format | DocumentKind, Sampled[]>();
  const chosen = new Set<string>();
  const order = shuffled(named, next);
  for (const { path, name } of order) {
    const format = FORMAT_BY_EXTENSION[extname(path).toLowerCase()]!;
    const wanted = SAMPLE[format] ?? 0;
    const taken = byFormat.get(format) ?? [];
    byFormat.set(format, taken);
    if (taken.length >= wanted) continue;
    const content = accepted(path, format);
    if (content === undefined) continue;
    taken.push({ name, path, format, content });
    chosen.add(path);
  }
  // The kinds are found by reading a file, so only files the per-format sample did not
  // take are read, in the same order, until each kind has its count.
  const kindNames = Object.keys(KIND_SAMPLE) as (keyof typeof KIND_SAMPLE)[];
  for (const kind of kindNames) byFormat.set(kind, []);
  for (const { path, name } of order) {
    if (kindNames.every((kind) => byFormat.get(kind)!.length >= KIND_SAMPLE[kind])) break;
    if (chosen.has(path)) continue;
    const format = FORMAT_BY_EXTENSION[extname(path).toLowerCase()]!;
    // (a cheap look at the path first: only JSON in a catalog folder can be a catalog)
    if (format === 'json' && byFormat.get('i18n catalog')!.length >= KIND_SAMPLE['i18n catalog']) continue;
    if (format === 'json' && documentKind(format, path, '') !== 'i18n catalog') continue;
    const content = accepted(path, format);
    if (content === undefined) continue;
    const kind = documentKind(format, path, content);
    if (kind === 'other' || byFormat.get(kind)!.length >= KIND_SAMPLE[kind]) continue;
    byFormat.get(kind)!.push({ name, path, format, content });
  }
  return byFormat;
}

/** The file's content when it is a document of `format` the adapter accepts, at most MAX_BYTES and UTF-8; else undefined. */
function accepted(path: string, format: Format): string | undefined {
  const size = statSync(path).size;
  if (size === 0 || size > MAX_BYTES) return undefined;
  const content = readFileSync(path, 'utf8');
  if (content.includes('\ufffd')) return undefined; // (not UTF-8: not a document this service is sent)
  try {
    getAdapter(format).extract(content);
  } catch (error) {
    if ((error as { code?: string }).code === 'invalid_request') return undefined; // not this format after all
  }
  return content;
}

let htmlFiles = 0;
const documents = sample();

describe('real documents are byte-exact under pseudo', () => {
  it('the sample holds at least 150 documents, every format represented, and each kind that broke', () => {
    const counts = Object.fromEntries([...documents].map(([format, docs]) => [format, docs.length]));
    const total = [...documents.values()].reduce((sum, docs) => sum + docs.length, 0);
    // i18n catalogs come with the devDependencies (yargs, i18n-iso-countries, datatables.net-plugins),
    // Texinfo manuals with Debian's documentation (.ci/run installs two), READMEs with the packages.
    for (const kind of Object.keys(KIND_SAMPLE) as (keyof typeof KIND_SAMPLE)[]) {
      assert.equal(counts[kind], KIND_SAMPLE[kind], `sample: ${JSON.stringify(counts)}`);
    }
    assert.ok(total >= 150, `sample: ${JSON.stringify(counts)}`);
    assert.ok((counts.markdown ?? 0) >= 50 && (counts.json ?? 0) >= 50, `sample: ${JSON.stringify(counts)}`);
    // HTML comes from Debian's documentation and the packages: at least 40 where they have that many.
    assert.ok((counts.html ?? 0) >= Math.min(40, htmlFiles), `sample: ${JSON.stringify(counts)}, html files found: ${htmlFiles}`);
  });

  for (const [group, docs] of documents) {
    describe(group, () => {
      for (const { name, content, format } of docs) {
        it(name, () => {
          const doc = getAdapter(format).extract(content);
          for (const target of [LTR, RTL]) {
            const difference = byteExactProblem(doc, target);
            if (difference) {
              assert.fail(
                `${name} (${target.code}) is not byte-exact at offset ${difference.at}:\n` +
                  `  expected ${JSON.stringify(difference.expected)}\n` +
                  `  actual   ${JSON.stringify(difference.actual)}`,
              );
            }
          }
          const problem =
            format === 'json' ? referencesProblem(content, pseudoRender(doc, LTR)) : format === 'html' ? untranslatedTextProblem(pseudoRender(doc, LTR)) : undefined;
          assert.equal(problem, undefined, `${name}: ${problem}`);
        });
      }
    });
  }
});
