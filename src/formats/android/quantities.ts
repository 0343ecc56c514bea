/**
 * The `<item quantity>`s a target's `<plurals>` has (CONTRACT §5): the CLDR categories
 * the language uses for whole numbers, plus `other` (Android's rule: lint's
 * MissingQuantity asks for each of them, and some Android versions crash without
 * `other`). A category only fractions reach (Russian `other` aside) has no item; Android
 * counts are integers. Whole numbers are asked of the plural rules, not listed by hand.
 */
import { isPluralCategory, pluralExamples } from '../../plurals/index.js';

export function isQuantity(word: string): boolean {
  return isPluralCategory(word);
}

/** The quantities of a target's `<plurals>`, in canonical order (zero, one, two, few, many, other). */
export function targetQuantities(code: string): readonly string[] {
  const out: string[] = [];
  for (const [category, numbers] of pluralExamples(code, 'cardinal')) {
    if (category === 'other' || numbers.some((n) => Number.isInteger(n))) out.push(category);
  }
  return out;
}
