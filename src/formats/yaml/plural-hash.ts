/**
 * Rails-style plural hashes (Ruby I18n's pluralization, docs/contract.md §5): a mapping
 * with an `other` key whose keys are all CLDR plural categories is one counted message.
 * A target gets exactly its own categories (Node's Intl.PluralRules, the CLDR data);
 * a source `zero` stays in every target, as Ruby I18n uses it for a count of 0 in every
 * language.
 */
import { isPluralCategory } from '../../plurals/index.js';

export function isPluralHash(keys: readonly string[]): boolean {
  return keys.length >= 2 && keys.includes('other') && keys.every(isPluralCategory) && new Set(keys).size === keys.length;
}
