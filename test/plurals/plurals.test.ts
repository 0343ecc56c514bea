/**
 * The plural leaf (src/plurals/): each language's CLDR categories and example numbers,
 * judged against make-plural, a separate build of CLDR's plural rules into JavaScript
 * (so a wrong sort, a wrong type or a wrong example shows against data nobody here wrote).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as makePluralCategories from 'make-plural/pluralCategories';
import * as makePluralRules from 'make-plural/plurals';
import { LANGUAGES } from '../../src/languages.js';
import {
  EXAMPLES_PER_CATEGORY,
  PLURAL_CATEGORIES,
  describePluralExamples,
  inCanonicalOrder,
  isPluralCategory,
  pluralCategories,
  pluralExamples,
  type PluralType,
} from '../../src/plurals/index.js';

const TYPES: readonly PluralType[] = ['cardinal', 'ordinal'];

type Rule = (n: number | string, ord?: boolean) => string;
/** make-plural names a language by its base code (`pt_PT` where the region has rules of its own). */
function referenceOf<T>(table: Record<string, T>, code: string): T {
  return table[code.replace('-', '_')] ?? table[code.split('-')[0]!]!;
}

describe('plural categories', () => {
  it('are CLDR’s for every one of the 43 languages and both types, in canonical order', () => {
    const table = makePluralCategories as unknown as Record<string, { cardinal: string[]; ordinal: string[] }>;
    for (const { code } of LANGUAGES) {
      for (const type of TYPES) {
        const expected = inCanonicalOrder(referenceOf(table, code)[type].filter(isPluralCategory));
        assert.deepEqual(pluralCategories(code, type), expected, `${code} ${type}`);
      }
    }
  });

  it('have the shapes the contract names: Arabic six, Russian four, Japanese only other', () => {
    assert.deepEqual(pluralCategories('ar', 'cardinal'), ['zero', 'one', 'two', 'few', 'many', 'other']);
    assert.deepEqual(pluralCategories('ru', 'cardinal'), ['one', 'few', 'many', 'other']);
    assert.deepEqual(pluralCategories('sl', 'cardinal'), ['one', 'two', 'few', 'other']);
    assert.deepEqual(pluralCategories('lv', 'cardinal'), ['zero', 'one', 'other']);
    assert.deepEqual(pluralCategories('fr', 'cardinal'), ['one', 'many', 'other']);
    assert.deepEqual(pluralCategories('ja', 'cardinal'), ['other']);
    assert.deepEqual(pluralCategories('en', 'ordinal'), ['one', 'two', 'few', 'other']);
    assert.deepEqual(pluralCategories('de', 'ordinal'), ['other']);
  });

  it('match codes case-insensitively and by region (pt-PT as pt-pt)', () => {
    assert.deepEqual(pluralCategories('PT-pt', 'cardinal'), pluralCategories('pt-PT', 'cardinal'));
    assert.deepEqual(pluralCategories('zh-TW', 'cardinal'), ['other']);
  });

  it('sort into zero, one, two, few, many, other whatever order they come in', () => {
    assert.deepEqual(inCanonicalOrder(['other', 'few', 'one', 'many', 'two', 'zero', 'one']), PLURAL_CATEGORIES);
    assert.equal(isPluralCategory('few'), true);
    assert.equal(isPluralCategory('=0'), false);
    assert.equal(isPluralCategory('plural'), false);
  });
});

describe('plural example numbers', () => {
  it('give every category of every language at least one number, each of which the rules put in that category', () => {
    const rules = makePluralRules as unknown as Record<string, Rule>;
    for (const { code } of LANGUAGES) {
      const rule = referenceOf(rules, code);
      for (const type of TYPES) {
        const examples = pluralExamples(code, type);
        assert.deepEqual([...examples.keys()], pluralCategories(code, type), `${code} ${type}`);
        for (const [category, numbers] of examples) {
          assert.ok(numbers.length >= 1 && numbers.length <= EXAMPLES_PER_CATEGORY, `${code} ${type} ${category}: ${numbers}`);
          for (const n of numbers) assert.equal(rule(String(n), type === 'ordinal'), category, `${code} ${type} ${n}`);
        }
      }
    }
  });

  it('prefer whole numbers, and use a fraction only for a cardinal category no whole number reaches', () => {
    assert.deepEqual(pluralExamples('ru', 'cardinal').get('few'), [2, 3, 4, 22, 23]);
    assert.deepEqual(pluralExamples('ru', 'cardinal').get('other'), [0.5]);
    assert.deepEqual(pluralExamples('cs', 'cardinal').get('many'), [0.5]);
    for (const { code } of LANGUAGES) {
      for (const type of TYPES) {
        for (const numbers of pluralExamples(code, type).values()) {
          const hasWhole = numbers.some(Number.isInteger);
          assert.ok(hasWhole || (type === 'cardinal' && numbers.length === 1), `${code} ${type}: ${numbers}`);
        }
      }
    }
  });

  it('reach the millions for French, Spanish, Italian and Portuguese many', () => {
    for (const code of ['fr', 'es', 'it', 'pt']) assert.ok(pluralExamples(code, 'cardinal').get('many')!.includes(1_000_000), code);
  });

  it('read as one line per category, for a prompt', () => {
    assert.deepEqual(describePluralExamples('ar', 'cardinal'), [
      'zero: 0',
      'one: 1',
      'two: 2',
      'few: 3, 4, 5, 6, 7',
      'many: 11, 12, 13, 14, 15',
      'other: 100, 101, 102, 200, 201',
    ]);
  });
});
