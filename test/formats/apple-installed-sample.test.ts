/**
 * Apple `.strings` files nobody here wrote, on any Debian machine: GNUstep's own
 * localizations (Debian's gnustep-base-common and gnustep-gui-common, read in place under
 * /usr/share/GNUstep and /usr/lib/GNUstep; never copied into the repository). A seeded
 * sample of them (all of them while there are few), decoded as the CLI decodes a file
 * (src/localize/text-encoding.ts: UTF-16 by its byte-order mark, else UTF-8), each
 * answered for a right-to-left and a many-forms target: byte-exact under pseudo outside
 * the values (test/formats/byte-exact.ts), and read by translate-toolkit into the same
 * keys, each value the translation of its source (test/formats/apple-judges.ts).
 * `.stringsdict` files are judged the same way by the stringsdict reader when any are
 * installed. With CI=true a machine without the files fails; otherwise the test skips
 * and says why.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { ServiceError } from '../../src/errors.js';
import { getAdapter } from '../../src/formats/index.js';
import { decodeFile } from '../../src/localize/text-encoding.js';
import { toolkitStrings, toolkitStringsdict } from './apple-judges.js';
import { byteExactProblem } from './byte-exact.js';
import { pseudoRender, unpseudo } from './helpers.js';

const ROOTS = ['/usr/share/GNUstep', '/usr/lib/GNUstep'];
// APPLE_INSTALLED_SAMPLE=1000 judges every installed file (docs/benchmarks.md counts them so).
const SAMPLE = Number(process.env.APPLE_INSTALLED_SAMPLE ?? 30);
const SEED = 20261129;

/** mulberry32, as the other samples use. */
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

function appleFiles(dir: string, found: string[] = []): string[] {
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    // Symbolic links are skipped: GNUstep's `Current` version link would list every file twice.
    if (entry.isDirectory()) appleFiles(path, found);
    else if (entry.isFile() && /\.(?:strings|stringsdict)$/.test(entry.name)) found.push(path);
  }
  return found;
}

// Sorted before shuffling, so the sample is the same for a given set of files.
const files = ROOTS.flatMap((root) => appleFiles(root)).sort();
const random = seeded(SEED);
for (let i = files.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [files[i], files[j]] = [files[j]!, files[i]!];
}
const sample = files.slice(0, SAMPLE);

/**
 * Installed files that are not valid `.strings` (read with `cat -A`): CFPropertyList
 * would not load them either, so the answer is a clean 400 naming the line, not a guess.
 */
const BROKEN: Readonly<Record<string, { line: number; why: string }>> = {
  'GWorkspace.app/Norvegian.lproj/Localizable.strings': { line: 17, why: 'a pair without its ";"' },
  'GWorkspace.app/Portuguese.lproj/Localizable.strings': { line: 45, why: 'a pair without its ";"' },
  'GWorkspace.app/Hungarian.lproj/Localizable.strings': { line: 195, why: 'unescaped quotes inside a value' },
  'Cynthiune.app/Hungarian.lproj/Localizable.strings': { line: 11, why: 'a value missing its opening quote' },
};

/** The text without the pseudo engine's marks nor the source's own accents, composed again (ギ is キ plus a mark unpseudo keeps). */
function bare(text: string): string {
  return unpseudo(text).normalize('NFC');
}

const TARGETS = [
  { code: 'ar', rtl: true },
  { code: 'ru', rtl: false },
];
const missing = files.length === 0 ? `no .strings or .stringsdict file under ${ROOTS.join(' or ')} (.ci/run installs gnustep-base-common and gnustep-gui-common)` : undefined;
if (missing && process.env.CI !== 'true') console.log(`# apple-installed-sample skipped: ${missing}`);

describe('Apple .strings installed by Debian (GNUstep)', { timeout: 600_000 }, () => {
  it('are installed', { skip: process.env.CI !== 'true' && missing }, () => {
    assert.equal(missing, undefined, missing);
  });

  for (const path of sample) {
    const name = relative('/usr', path);
    const broken = BROKEN[relative('/usr/share/GNUstep', path)];
    if (broken) {
      it(`refuses ${name} with the line at fault (${broken.why})`, () => {
        const { text } = decodeFile(readFileSync(path));
        assert.throws(
          () => getAdapter('strings').extract(text),
          (error: unknown) => error instanceof ServiceError && error.code === 'invalid_request' && error.message.includes(`line ${broken.line}:`),
        );
      });
      continue;
    }
    it(`answers ${name} byte-exact and read by translate-toolkit (ar, ru)`, () => {
      const { text } = decodeFile(readFileSync(path));
      const format = path.endsWith('.stringsdict') ? 'stringsdict' : 'strings';
      const read = format === 'strings' ? toolkitStrings : toolkitStringsdict;
      const doc = getAdapter(format).extract(text);
      const source = read(text);
      // Cenon's English Localizable.strings is a comment and no pair: nothing to translate is its right answer.
      assert.ok(doc.segments.length > 0 || Object.keys(source).length === 0, 'no text to translate');
      for (const target of TARGETS) {
        assert.equal(byteExactProblem(doc, target), undefined, target.code);
        const answer = read(pseudoRender(doc, target));
        assert.deepEqual(Object.keys(answer), Object.keys(source), target.code);
        // The source's own accents go the way of the pseudo marks (unpseudo is NFD minus marks), so both sides are compared so.
        for (const key of Object.keys(source)) assert.equal(bare(answer[key]!), bare(source[key]!), `${target.code} ${key}`);
      }
    });
  }
});
