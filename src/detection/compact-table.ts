/**
 * eld's n-gram table made smaller without changing a single answer (docs/detection.md,
 * "Memory"). The medium table maps ~105,000 n-grams to a small object of language index →
 * score, one object each: ~58 MB of heap in every process that detects, the largest
 * single item of the service's memory (docs/benchmarks.md).
 *
 * - Only the languages of the detector's subset are kept in each object. eld adds the
 *   scores of every language and drops those outside the subset from the results before
 *   it ranks, scales or judges reliability (languageDetector.js `filterLangSubset`,
 *   LanguageResult.js), so a language that is dropped anyway contributes nothing. An
 *   n-gram left with no language is left out: it adds nothing to any kept score.
 * - Equal objects are shared: ~14,500 distinct score sets remain for ~83,000 n-grams.
 *   eld only reads them.
 *
 * The subset must stay set on the detector for the table's life.
 */
import type { NgramScores } from './eld-table.js';

export type NgramTable = Record<string, NgramScores>;

/** The table of `entries` (n-gram → scores, as eld-table.ts reads them) with only `keptLanguages`' scores. */
export function compactNgramTable(entries: Iterable<[string, NgramScores]>, keptLanguages: ReadonlySet<string>): NgramTable {
  const shared = new Map<string, NgramScores>();
  const ngrams: NgramTable = {};
  for (const [ngram, scores] of entries) {
    const kept: NgramScores = {};
    let signature = '';
    for (const language in scores) {
      if (!keptLanguages.has(language)) continue;
      kept[language] = scores[language]!;
      signature += `${language}:${scores[language]},`;
    }
    if (signature === '') continue;
    let same = shared.get(signature);
    if (same === undefined) shared.set(signature, (same = kept));
    ngrams[ngram] = same;
  }
  return ngrams;
}
