/**
 * Rails-style plural hashes (Ruby I18n's pluralization, docs/contract.md §5): a mapping
 * with an `other` key whose keys are all CLDR plural categories is one counted message.
 * A target gets exactly its own categories (Node's Intl.PluralRules, the CLDR data);
 * a source `zero` stays in every target, as Ruby I18n uses it for a count of 0 in every
 * language.
 */
import { pluralCategories } from '../../plurals/index.js';

const CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
const CATEGORY_SET: ReadonlySet<string> = new Set(CATEGORIES);

export function isPluralHash(keys: readonly string[]): boolean {
  return keys.length >= 2 && keys.includes('other') && keys.every((key) => CATEGORY_SET.has(key)) && new Set(keys).size === keys.length;
}

/** The categories a target writes, in canonical order (zero, one, two, few, many, other). */
export function targetCategories(code: string): readonly string[] {
  return pluralCategories(code, 'cardinal');
}
