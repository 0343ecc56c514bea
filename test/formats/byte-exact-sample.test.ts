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
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import type { Format } from '../../src/formats/format.js';
import { getAdapter } from '../../src/formats/index.js';
import { byteExactProblem } from './byte-exact.js';
import { LTR, RTL } from './helpers.js';

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

/** The sample: per format, the first accepted documents of the shuffled, sorted paths. */
function sample(): Map<Format, Sampled[]> {
  const named = ROOTS.filter((root) => existsSync(root))
    .flatMap((root) => [...walk(root)])
    .map((path) => ({ path, name: path.startsWith(PROJECT) ? relative(PROJECT, path) : path }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  htmlFiles = named.filter(({ path }) => FORMAT_BY_EXTENSION[extname(path).toLowerCase()] === 'html').length;
  const next = seeded(SEED);
  const byFormat = new Map<Format, Sampled[]>();
  for (const { path, name } of shuffled(named, next)) {
    const format = FORMAT_BY_EXTENSION[extname(path).toLowerCase()]!;
    const wanted = SAMPLE[format] ?? 0;
    const taken = byFormat.get(format) ?? [];
    byFormat.set(format, taken);
    if (taken.length >= wanted) continue;
    const size = statSync(path).size;
    if (size === 0 || size > MAX_BYTES) continue;
    const content = readFileSync(path, 'utf8');
    if (content.includes('\ufffd')) continue; // (not UTF-8: not a document this service is sent)
    try {
      getAdapter(format).extract(content);
    } catch (error) {
      if ((error as { code?: string }).code === 'invalid_request') continue; // not this format after all
    }
    taken.push({ name, path, format, content });
  }
  return byFormat;
}

let htmlFiles = 0;
const documents = sample();

describe('real documents are byte-exact under pseudo', () => {
  it('the sample holds at least 150 documents, every format represented', () => {
    const counts = Object.fromEntries([...documents].map(([format, docs]) => [format, docs.length]));
    const total = [...documents.values()].reduce((sum, docs) => sum + docs.length, 0);
    assert.ok(total >= 150, `sample: ${JSON.stringify(counts)}`);
    assert.ok((counts.markdown ?? 0) >= 50 && (counts.json ?? 0) >= 50, `sample: ${JSON.stringify(counts)}`);
    // HTML comes from Debian's documentation and the packages: at least 40 where they have that many.
    assert.ok((counts.html ?? 0) >= Math.min(40, htmlFiles), `sample: ${JSON.stringify(counts)}, html files found: ${htmlFiles}`);
  });

  for (const [format, docs] of documents) {
    describe(format, () => {
      for (const { name, content } of docs) {
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
        });
      }
    });
  }
});
