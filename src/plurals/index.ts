export {
  PLURAL_CATEGORIES,
  canonicalRank,
  inCanonicalOrder,
  isPluralCategory,
  pluralCategories,
  pluralRules,
  type PluralCategory,
  type PluralType,
} from './categories.js';
export { EXAMPLES_PER_CATEGORY, describePluralExamples, pluralExamples, type PluralExamples } from './examples.js';
