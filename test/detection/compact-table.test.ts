/**
 * The detector the service runs (detection/eld-detector.ts: eld's table compacted at
 * build time, lean-table.ts) must not change a single answer of eld: scores, winner and reliability are
 * compared with eld as its package ships it (its module's untouched table) on
 * the translations Debian installs under /usr/share/locale (every locale, including the
 * languages the compaction removes, whose n-grams are deleted from the table).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compactNgramParts } from '../../src/detection/compact-table.js';
import { packedNgramTable } from '../../src/detection/packed-ngrams.js';
import { ELD_SUBSET } from '../../src/detection/detect-language.js';
import { loadEldDetector, type Eld } from '../../src/detection/eld-detector.js';
import type { NgramScores } from '../../src/detection/compact-table.js';
import { installedTranslations } from '../helpers/mo-files.js';

describe('compactNgramParts', () => {
  it('keeps only the listed languages, numbered from 1 in order, and leaves out n-grams left empty', () => {
    const entries: [string, NgramScores][] = [
      ['abc', { 1: 10, 3: 5 }],
      ['bcd', { 2: 6, 3: 5 }],
      ['cde', { 2: 9 }],
      ['def', { 1: 10, 2: 6, 3: 5 }],
      ['efg', { 1: 4 }],
    ];
    const parts = compactNgramParts(entries, { 0: 'am', 1: 'ar', 2: 'az', 3: 'bg' }, new Set(['1', '3']));
    const { languages } = parts;
    const ngrams = packedNgramTable(parts.ngrams);
    assert.deepEqual(languages, { 0: '', 1: 'ar', 2: 'bg' });
    const found = Object.fromEntries(['abc', 'bcd', 'cde', 'def', 'efg'].map((ngram) => [ngram, ngrams[ngram]]));
    assert.deepEqual(found, { abc: [, 10, 5], bcd: [, , 5], cde: undefined, def: [, 10, 5], efg: [, 4] });
    assert.deepEqual(Object.keys(ngrams.bcd!), ['2'], 'only present languages are walked');
    assert.equal(ngrams.efg!.length, 2, 'a set is as long as its highest index needs');
  });
});

describe('detection with the compacted table', () => {
  it("gives eld's own answers on every installed translation", async () => {
    const texts = installedTranslations(3, (text) => /\p{L}{3}/u.test(text));
    assert.ok(texts.length >= 2_000, `only ${texts.length} translations found under /usr/share/locale`);

    // eld as its package ships it: the untouched table its module holds, limited to the
    // service's languages as the service limits it.
    const { eld } = (await import('eld/medium')) as { eld: Eld };
    eld.setLanguageSubset([...ELD_SUBSET]);
    // What the service runs: the same table compacted at build time.
    const { eld: shipped, loader } = await loadEldDetector(ELD_SUBSET);
    assert.equal(loader, 'lean table', 'the service runs eld over the lean table (npm run build writes it)');

    const answer = (detector: Eld) => (text: string) => {
      const result = detector.detect(text);
      return JSON.stringify({ language: result.language, scores: result.getScores(), reliable: result.isReliable() });
    };
    const expected = texts.map(answer(eld));
    const actual = texts.map(answer(shipped));
    assert.deepEqual(
      texts.filter((_, i) => expected[i] !== actual[i]),
      [],
    );
    // Most texts must have been judged at all, or the comparison says little.
    assert.ok(expected.filter((json) => !json.includes('"language":""')).length > texts.length / 2);
  });
});
