/**
 * Example numbers for each plural category of a language, found by asking
 * `Intl.PluralRules#select` over a range rather than written by hand, so they are true
 * for whatever CLDR version Node carries. A model is told them (`few: 2, 3, 4, 22, 23`)
 * so it can word each form of a counted message.
 */
import { LRUCache } from 'lru-cache';
import { LANGUAGE_MEMO_SIZE, pluralCategories, pluralRules, type PluralCategory, type PluralType } from './categories.js';

/** How many examples a category gets at most. */
export const EXAMPLES_PER_CATEGORY = 5;

// Whole numbers first (what a count usually is), up to a range that shows every
// integer category of CLDR's rules (the teens, the hundreds: Arabic's `many` starts at
// 11, its `few` repeats at 103); then millions, which French, Spanish, Italian and
// Portuguese put in `many`; then, for cardinals only, fractions for the categories no
// whole number reaches (Czech and Lithuanian `many`, Russian `other`).
const WHOLE_NUMBER_LIMIT = 1000;
const LARGE_NUMBERS: readonly number[] = [1_000_000, 2_000_000, 1_000_000_000];
const FRACTIONS: readonly number[] = [0.5, 1.5, 2.5, 0.1, 1.1, 10.5, 100.5];

/** The examples of one category, in the order found: whole numbers ascending, then larger ones, then fractions. */
export type PluralExamples = ReadonlyMap<PluralCategory, readonly number[]>;

// Memos of pure functions of a language code, bounded because a code may come from a
// file's own header (docs/caches.md).
const examplesByKey = new LRUCache<string, PluralExamples>({ max: LANGUAGE_MEMO_SIZE });

/**
 * Up to EXAMPLES_PER_CATEGORY numbers per category of the language and type, every
 * category of `pluralCategories` present with at least one. A fraction is used only
 * for a cardinal category that no whole number selects.
 */
export function pluralExamples(language: string, type: PluralType): PluralExamples {
  const key = `${type} ${language.toLowerCase()}`;
  const cached = examplesByKey.get(key);
  if (cached !== undefined) return cached;
  const rules = pluralRules(language, type);
  const found = new Map<PluralCategory, number[]>(pluralCategories(language, type).map((category) => [category, []]));
  const offer = (n: number, onlyIfEmpty: boolean): void => {
    const list = found.get(rules.select(n) as PluralCategory);
    if (list === undefined || list.length >= EXAMPLES_PER_CATEGORY || (onlyIfEmpty && list.length > 0)) return;
    list.push(n);
  };
  for (let n = 0; n <= WHOLE_NUMBER_LIMIT; n++) offer(n, false);
  for (const n of LARGE_NUMBERS) offer(n, false);
  if (type === 'cardinal') for (const n of FRACTIONS) offer(n, true);
  const frozen: PluralExamples = new Map([...found].map(([category, numbers]) => [category, Object.freeze(numbers)]));
  examplesByKey.set(key, frozen);
  return frozen;
}

/** One line per category, in canonical order: `few: 2, 3, 4, 22, 23`. */
export function describePluralExamples(language: string, type: PluralType): string[] {
  return [...pluralExamples(language, type)].map(([category, numbers]) => `${category}: ${numbers.join(', ')}`);
}
