/**
 * Locale files nobody here wrote, installed on the machine (never copied into the
 * repository): a seeded sample of the gettext catalogs Debian's gettext-doc ships with
 * its examples (translations by many translators), each answered for a left-to-right
 * and a right-to-left target, checked by `msgfmt -c` and judged byte-exact
 * (test/formats/byte-exact.ts). The sample is the same for a given set of files.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { getAdapter } from '../../src/formats/index.js';
import { byteExactProblem } from './byte-exact.js';
import { pseudoRender } from './helpers.js';

const ROOT = '/usr/share/doc/gettext/examples';
const SAMPLE = 24;
const SEED = 20261128;

function* walk(dir: string): Generator<string> {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile() && /\.pot?$/.test(entry.name)) yield path;
  }
}

/** mulberry32, as the byte-exact sample uses. */
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

// Catalogs in another charset would need transcoding before they are sent (the API takes text).
const files = [...walk(ROOT)].filter((path) => /charset=(?:UTF-8|ASCII|CHARSET)\b/i.test(readFileSync(path, 'latin1'))).sort();
const random = seeded(SEED);
for (let i = files.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [files[i], files[j]] = [files[j]!, files[i]!];
}
const dir = mkdtempSync(join(tmpdir(), 'po-sample-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('po files installed by gettext-doc', () => {
  it('are installed (.ci/run installs gettext-doc)', () => {
    assert.ok(files.length >= SAMPLE, `${files.length} PO files under ${ROOT}`);
  });

  for (const path of files.slice(0, SAMPLE)) {
    it(`answers ${path.slice(ROOT.length + 1)} valid for msgfmt -c and byte-exact (ru, ar)`, () => {
      const doc = getAdapter('po').extract(readFileSync(path, 'utf8'));
      for (const target of [{ code: 'ru', rtl: false }, { code: 'ar', rtl: true }]) {
        const out = join(dir, 'answer.po');
        writeFileSync(out, pseudoRender(doc, target));
        execFileSync('msgfmt', ['-c', '-o', '/dev/null', out], { stdio: 'pipe' });
        assert.equal(byteExactProblem(doc, target), undefined);
      }
    });
  }
});
