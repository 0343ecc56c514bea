/**
 * Rails-style plural hashes (Ruby I18n's pluralization, docs/contract.md §5): a mapping
 * with an `other` key whose keys are all CLDR plural categories is one counted message.
 * A target gets exactly its own categories (Node's Intl.PluralRules, the CLDR data);
 * a source `zero` stays in every target, as Ruby I18n uses it for a count of 0 in every
 * language.
 */
const CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
const CATEGORY_SET: ReadonlySet<string> = new Set(CATEGORIES);

export function isPluralHash(keys: readonly string[]): boolean {
  return keys.length >= 2 && keys.includes('other') && keys.every((key) => CATEGORY_SET.has(key)) && new Set(keys).size === keys.length;
}

const cache = new Map<string, readonly string[]>();

/** The categories a target writes, in canonical order (zero, one, two, few, many, other). */
export function targetCategories(code: string): readonly string[] {
  let categories = cache.get(code);
  if (!categories) {
    let found: readonly string[];
    try {
      found = new Intl.PluralRules(code).resolvedOptions().pluralCategories;
    } catch {
      found = ['one', 'other'];
    }
    categories = CATEGORIES.filter((category) => found.includes(category));
    cache.set(code, categories);
  }
  return categories;
}
