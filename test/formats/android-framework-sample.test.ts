/**
 * Android string resources nobody here wrote, on any Debian machine: a seeded sample of
 * the Android framework's own `values*\/strings.xml` and `plurals.xml` (Debian's
 * android-framework-res decoded by apktool, test/formats/framework-res.ts; never copied
 * into the repository), each answered for a right-to-left and a many-forms target:
 * well-formed XML (Python's expat), compiled by aapt whenever aapt compiles the source
 * file alone (references to the framework's other files aside), and byte-exact under
 * pseudo (test/formats/byte-exact.ts). The sample is the same for a given set of files.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { getAdapter } from '../../src/formats/index.js';
import { byteExactProblem } from './byte-exact.js';
import { FRAMEWORK_APK, frameworkResources } from './framework-res.js';
import { pseudoRender } from './helpers.js';

const SAMPLE = 8;
const SEED = 20261128;

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

// The language folders (`values-fr`, `values-pt-rBR`), where translators' text is; not the carrier or device variants.
const files = frameworkResources().filter((file) => /^values(?:-[a-z]{2,3}(?:-r[A-Z]{2})?)?\//.test(file.path));
const random = seeded(SEED);
for (let i = files.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [files[i], files[j]] = [files[j]!, files[i]!];
}
// The default resources (the source language, with every plural) are always in.
const sample = [...files.filter((file) => file.path.startsWith('values/')), ...files.filter((file) => !file.path.startsWith('values/')).slice(0, SAMPLE)];

const project = mkdtempSync(join(tmpdir(), 'aapt-judge-'));
after(() => rmSync(project, { recursive: true, force: true }));

function aaptCompiles(xml: string): string | undefined {
  rmSync(join(project, 'res'), { recursive: true, force: true });
  mkdirSync(join(project, 'res', 'values'), { recursive: true });
  writeFileSync(join(project, 'AndroidManifest.xml'), '<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.judge"/>\n');
  writeFileSync(join(project, 'res', 'values', 'strings.xml'), xml);
  try {
    execFileSync('aapt', ['package', '-f', '-M', join(project, 'AndroidManifest.xml'), '-S', join(project, 'res'), '-I', FRAMEWORK_APK, '-F', join(project, 'out.apk')], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error).slice(0, 400);
  }
}

describe('Android framework resources (Debian android-framework-res, decoded by apktool)', { timeout: 900_000 }, () => {
  it('are installed and decoded (.ci/run installs aapt, apktool and android-framework-res)', () => {
    assert.ok(files.length >= SAMPLE, `${files.length} resource files decoded from ${FRAMEWORK_APK}`);
    assert.ok(sample.some((file) => file.path === 'values/plurals.xml'));
  });

  for (const file of sample) {
    it(`answers ${file.path} well-formed, compiled by aapt and byte-exact (ar, ru)`, () => {
      const doc = getAdapter('android').extract(file.content);
      const sourceCompiles = aaptCompiles(file.content) === undefined;
      for (const target of [{ code: 'ar', rtl: true }, { code: 'ru', rtl: false }]) {
        const answer = pseudoRender(doc, target);
        execFileSync('python3', ['-c', 'import sys,xml.etree.ElementTree as E; E.fromstring(sys.stdin.read())'], { input: answer, stdio: ['pipe', 'pipe', 'pipe'] });
        if (sourceCompiles) assert.equal(aaptCompiles(answer), undefined, `aapt refuses the ${target.code} answer`);
        assert.equal(byteExactProblem(doc, target), undefined);
      }
    });
  }
});
