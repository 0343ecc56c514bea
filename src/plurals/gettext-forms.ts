/**
 * gettext's plural rule per language (docs/contract.md §5, §6): `nplurals` and the
 * `plural=` expression of a catalog's `Plural-Forms` header, and which form a count
 * picks. gettext counts whole numbers only, so Russian has 3 forms here, not CLDR's 4.
 * The rules come from the `plural-forms` package's CLDR→gettext table (137 languages),
 * never from a hand-written list; this file only maps our codes to its names.
 */
import { LRUCache } from 'lru-cache';
import { getFormula, getNPlurals, getPluralFunc, hasLang } from 'plural-forms';
import { LANGUAGE_MEMO_SIZE, pluralRules, type PluralCategory } from './categories.js';

export interface GettextPluralRule {
  /** The gettext language name the rule was found under (`pt_BR`, `ru`). */
  readonly language: string;
  readonly nplurals: number;
  /** The C expression of `plural=` (without the trailing `;`). */
  readonly expression: string;
  /** The form index a whole count picks. */
  formOf(count: number): number;
  /** Up to `max` whole counts from 0 that pick form `index`, smallest first. */
  examples(index: number, max?: number): number[];
  /**
   * The CLDR category of each form: the one most of the form's first counts fall in
   * (Russian: one, few, many). A model words a message per CLDR category, with example
   * numbers; gettext's forms take those texts.
   */
  readonly formCategories: readonly PluralCategory[];
}

/** How many of a form's first counts decide its CLDR category. */
const COUNTS_PER_FORM = 8;

/** `pt-BR` → `pt_BR`: gettext spells regions with an underscore. */
export function gettextLanguage(code: string): string {
  const [language, region] = code.split(/[-_]/);
  return region ? `${language!.toLowerCase()}_${region.toUpperCase()}` : language!.toLowerCase();
}

// Memos of pure functions of a language code, bounded because a code may come from a
// file's own header (docs/caches.md).
const cache = new LRUCache<string, { rule: GettextPluralRule | undefined }>({ max: LANGUAGE_MEMO_SIZE });

/** The rule for an API language code (`ru`, `pt-BR`), or undefined when the table has none. */
export function gettextPluralRule(code: string): GettextPluralRule | undefined {
  const language = gettextLanguage(code);
  const known = cache.get(language);
  if (known) return known.rule;
  const name = hasLang(language) ? language : hasLang(language.split('_')[0]!) ? language.split('_')[0]! : undefined;
  const rule = name === undefined ? undefined : makeRule(name);
  cache.set(language, { rule });
  return rule;
}

function makeRule(language: string): GettextPluralRule {
  const nplurals = Number(getNPlurals(language));
  const expression = String(getFormula(language));
  const pick = getPluralFunc(language) as unknown as (n: number, forms: readonly number[]) => number;
  const indexes = Array.from({ length: nplurals }, (_, i) => i);
  const formOf = (count: number): number => pick(count, indexes);
  const examples = (index: number, max = 6): number[] => {
    const found: number[] = [];
    for (let n = 0; n <= 1000 && found.length < max; n++) if (formOf(n) === index) found.push(n);
    return found;
  };
  const cldr = pluralRules(language.replace('_', '-'), 'cardinal');
  const formCategories = indexes.map((index) => {
    const votes = new Map<PluralCategory, number>();
    for (const n of examples(index, COUNTS_PER_FORM)) {
      const category = cldr.select(n) as PluralCategory;
      votes.set(category, (votes.get(category) ?? 0) + 1);
    }
    let best: PluralCategory = 'other';
    for (const [category, count] of votes) if (count > (votes.get(best) ?? 0)) best = category;
    return best;
  });
  return { language, nplurals, expression, formOf, examples, formCategories: Object.freeze(formCategories) };
}

/** The `Plural-Forms` header value for a rule: `nplurals=3; plural=(…);`. */
export function pluralFormsHeader(rule: GettextPluralRule): string {
  return `nplurals=${rule.nplurals}; plural=${rule.expression};`;
}
