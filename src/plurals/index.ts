export {
  PLURAL_CATEGORIES,
  inCanonicalOrder,
  isPluralCategory,
  pluralCategories,
  type PluralCategory,
  type PluralType,
} from './categories.js';
export { EXAMPLES_PER_CATEGORY, describePluralExamples, pluralExamples } from './examples.js';
