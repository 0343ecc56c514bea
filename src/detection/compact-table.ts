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
 *   n-gram left with no language is deleted: it adds nothing to any kept score.
 * - Equal objects are shared: ~14,500 distinct score sets remain for ~83,000 n-grams.
 *   eld only reads them.
 *
 * The table is changed in place because eld holds it; it must be done before concurrent
 * use and with the subset that stays set for the process's life.
 */
export type NgramTable = Record<string, Record<string, number>>;

export interface Compaction {
  readonly ngramsBefore: number;
  readonly ngramsAfter: number;
  readonly distinctScoreSets: number;
}

export function compactNgramTable(ngrams: NgramTable, keptLanguages: ReadonlySet<string>): Compaction {
  const shared = new Map<string, Record<string, number>>();
  const all = Object.keys(ngrams);
  let removed = 0;
  for (const ngram of all) {
    const scores = ngrams[ngram]!;
    const kept: Record<string, number> = {};
    let signature = '';
    for (const language in scores) {
      if (!keptLanguages.has(language)) continue;
      kept[language] = scores[language]!;
      signature += `${language}:${scores[language]},`;
    }
    if (signature === '') {
      delete ngrams[ngram];
      removed++;
      continue;
    }
    let same = shared.get(signature);
    if (same === undefined) shared.set(signature, (same = kept));
    ngrams[ngram] = same;
  }
  return { ngramsBefore: all.length, ngramsAfter: all.length - removed, distinctScoreSets: shared.size };
}
