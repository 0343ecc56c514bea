/**
 * The CLDR plural categories of a language, as Node's own ICU reports them
 * (`Intl.PluralRules#resolvedOptions().pluralCategories`), in the canonical order
 * zero, one, two, few, many, other (docs/formats.md, "Plurals"). Intl lists them in no
 * promised order, so every answer here is sorted: the order is what formats insert
 * missing branches by and what prompts list.
 */

import { LRUCache } from 'lru-cache';

/** More than every language and type the API knows, so those stay remembered. */
export const LANGUAGE_MEMO_SIZE = 256;

/** `cardinal` for ICU `plural` ("5 files"), `ordinal` for `selectordinal` ("5th file"). */
export type PluralType = 'cardinal' | 'ordinal';

export type PluralCategory = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';

/** The canonical order of CLDR's categories. */
export const PLURAL_CATEGORIES: readonly PluralCategory[] = Object.freeze(['zero', 'one', 'two', 'few', 'many', 'other']);

const CANONICAL_RANK = new Map<string, number>(PLURAL_CATEGORIES.map((category, rank) => [category, rank]));

export function isPluralCategory(word: string): word is PluralCategory {
  return CANONICAL_RANK.has(word);
}

/** Categories sorted into the canonical order, duplicates dropped. */
export function inCanonicalOrder(categories: Iterable<PluralCategory>): PluralCategory[] {
  return [...new Set(categories)].sort((a, b) => CANONICAL_RANK.get(a)! - CANONICAL_RANK.get(b)!);
}

// Built once per language and type: PluralRules construction is the costly part, and a
// request asks for the same few languages again and again. Bounded because a code may
// come from a file's own header (docs/caches.md).
const rulesByKey = new LRUCache<string, Intl.PluralRules>({ max: LANGUAGE_MEMO_SIZE });
const categoriesByKey = new LRUCache<string, readonly PluralCategory[]>({ max: LANGUAGE_MEMO_SIZE });

/** The `Intl.PluralRules` of a language and type, made once. */
export function pluralRules(language: string, type: PluralType): Intl.PluralRules {
  const key = `${type} ${language.toLowerCase()}`;
  let rules = rulesByKey.get(key);
  if (rules === undefined) {
    rules = new Intl.PluralRules(language, { type });
    rulesByKey.set(key, rules);
  }
  return rules;
}

/**
 * The categories a language has for the type, in canonical order (`ru` cardinal → one,
 * few, many, other; `ja` → other). A language Intl does not know falls back, as Intl does,
 * to its default locale's rules; callers pass codes from languages.ts.
 */
export function pluralCategories(language: string, type: PluralType): readonly PluralCategory[] {
  const key = `${type} ${language.toLowerCase()}`;
  let categories = categoriesByKey.get(key);
  if (categories === undefined) {
    const reported = pluralRules(language, type).resolvedOptions().pluralCategories as PluralCategory[];
    categories = Object.freeze(inCanonicalOrder(reported));
    categoriesByKey.set(key, categories);
  }
  return categories;
}
