/**
 * The compacted n-gram table (detection/compact-table.ts) must not change a single answer
 * of eld: scores, winner and reliability are compared with eld's own untouched table on
 * the translations Debian installs under /usr/share/locale (every locale, including the
 * languages the compaction removes, whose n-grams are deleted from the table).
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { compactNgramTable, type NgramTable } from '../../src/detection/compact-table.js';
import { detectLanguage, ELD_SUBSET } from '../../src/detection/detect-language.js';
import { readMo } from '../helpers/mo-files.js';

describe('compactNgramTable', () => {
  it('keeps only the listed languages, deletes n-grams left empty and shares equal score sets', () => {
    const table: NgramTable = {
      abc: { 1: 10, 2: 5 },
      bcd: { 2: 5, 3: 7 },
      cde: { 3: 9 },
      def: { 1: 10, 2: 5, 3: 1 },
      efg: { 1: 4 },
    };
    const result = compactNgramTable(table, new Set(['1', '2']));
    assert.deepEqual(result, { ngramsBefore: 5, ngramsAfter: 4, distinctScoreSets: 3 });
    assert.deepEqual(table, { abc: { 1: 10, 2: 5 }, bcd: { 2: 5 }, def: { 1: 10, 2: 5 }, efg: { 1: 4 } });
    assert.equal(table.abc, table.def, 'equal score sets are one object');
    assert.notEqual(table.abc, table.efg);
  });
});

interface Eld {
  detect(text: string): { language: string; getScores(): Record<string, number>; isReliable(): boolean };
  setLanguageSubset(languages: string[]): unknown;
}

/** Up to `perCatalog` translations of each catalog installed under /usr/share/locale. */
function installedTranslations(perCatalog: number): string[] {
  const texts: string[] = [];
  for (const locale of readdirSync('/usr/share/locale')) {
    let catalogs: string[];
    try {
      catalogs = readdirSync(`/usr/share/locale/${locale}/LC_MESSAGES`).filter((name) => name.endsWith('.mo'));
    } catch {
      continue;
    }
    for (const catalog of catalogs) {
      const translations = [...readMo(`/usr/share/locale/${locale}/LC_MESSAGES/${catalog}`).values()].filter((text) => /\p{L}{3}/u.test(text));
      const step = Math.max(1, Math.floor(translations.length / perCatalog));
      for (let i = 0; i < translations.length && i / step < perCatalog; i += step) texts.push(translations[i]!);
    }
  }
  return texts;
}

describe('detection with the compacted table', () => {
  it("gives eld's own answers on every installed translation", async () => {
    const texts = installedTranslations(3);
    assert.ok(texts.length >= 2_000, `only ${texts.length} translations found under /usr/share/locale`);

    // eld's untouched table, limited to the service's languages as the service limits it.
    const { eld } = (await import('eld/medium')) as { eld: Eld };
    const tableUrl = new URL('../ngrams/medium.js', import.meta.resolve('eld/medium')).href;
    const { ngramsData } = (await import(tableUrl)) as { ngramsData: { ngrams: NgramTable } };
    const ngramsBefore = Object.keys(ngramsData.ngrams).length;
    eld.setLanguageSubset([...ELD_SUBSET]);
    const answer = (text: string) => {
      const result = eld.detect(text);
      return { language: result.language, scores: result.getScores(), reliable: result.isReliable() };
    };
    const before = texts.map(answer);

    // The service's first detection loads and compacts the very table eld reads.
    await detectLanguage(['Le chat dort sur le canapé.']);
    const ngramsAfter = Object.keys(ngramsData.ngrams).length;
    assert.ok(ngramsAfter < ngramsBefore * 0.9, `the table eld reads was not compacted (${ngramsBefore} → ${ngramsAfter} n-grams)`);

    const after = texts.map(answer);
    const differing = texts.filter((_, i) => JSON.stringify(before[i]) !== JSON.stringify(after[i]));
    assert.deepEqual(differing, []);
    // Most texts must have been judged at all, or the comparison says little.
    assert.ok(before.filter((b) => b.language !== '').length > texts.length / 2);
  });
});
