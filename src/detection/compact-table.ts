/**
 * eld's n-gram table made smaller without changing a single answer (docs/detection.md,
 * "Memory"). The medium table maps ~105,000 n-grams to a small object of language index →
 * score, one object each: ~58 MB of heap in every process that detects, the largest
 * single item of the service's memory (docs/benchmarks.md).
 *
 * - Only the languages of the detector's subset are kept in each score set. eld adds the
 *   scores of every language and drops those outside the subset from the results before
 *   it ranks, scales or judges reliability (languageDetector.js `filterLangSubset`,
 *   LanguageResult.js), so a language that is dropped anyway contributes nothing. An
 *   n-gram left with no language is left out: it adds nothing to any kept score.
 * - The kept languages are numbered again from 1, in eld's order, and each score set is an
 *   array just long enough for its highest index. eld only walks a set's present indices
 *   (`for … in`) and adds into its own score array at the same index, so the numbers
 *   themselves never reach an answer; their order does (ties go to the lower index) and is
 *   kept. Index 0 stays a language with no n-grams: eld sizes its score array by the
 *   number of languages, and its reliability check compares the runner-up's index with a
 *   score below 1 (LanguageResult.js `isReliable`), which an index of 0 could come close
 *   to and no index from 1 up can. With 36 of eld's 60 languages, a set's array is ~27
 *   slots instead of ~70 (an object's elements grown up to eld's own index).
 * - Equal score sets are shared: ~14,500 distinct sets remain for ~83,000 n-grams. eld
 *   only reads them.
 * - The n-grams themselves are held as numbers (packed-ngrams.ts).
 *
 * The subset must stay set on the detector for the table's life.
 */
import { PackedNgramsBuilder, type CompactScores, type PackedNgramParts } from './packed-ngrams.js';

/** One n-gram's scores as eld's tables hold them: eld's language index → score. */
export type NgramScores = Readonly<Record<string, number>>;

/**
 * The table of `entries` (n-gram → scores, as eld's table module holds them) with only the
 * scores of `kept` (eld's language indices), renumbered from 1 in eld's order: the
 * languages and the packed n-grams' parts, to be written to a file (lean-table.ts).
 */
export function compactNgramParts(
  entries: Iterable<[string, NgramScores]>,
  languages: Readonly<Record<string, string>>,
  kept: ReadonlySet<string>,
): { readonly languages: Record<string, string>; readonly ngrams: PackedNgramParts } {
  const keptInOrder = Object.keys(languages).filter((index) => kept.has(index));
  const compactIndex = new Map(keptInOrder.map((index, position) => [index, position + 1]));
  const compactLanguages: Record<string, string> = { 0: '' };
  for (const [index, compact] of compactIndex) compactLanguages[compact] = languages[index]!;

  const shared = new Map<string, CompactScores>();
  const ngrams = new PackedNgramsBuilder();
  const present: number[] = [];
  const scoresOf: number[] = [];
  for (const [ngram, scores] of entries) {
    present.length = 0;
    scoresOf.length = 0;
    let signature = '';
    for (const language in scores) {
      const compact = compactIndex.get(language);
      if (compact === undefined) continue;
      present.push(compact);
      scoresOf.push(scores[language]!);
      signature += `${compact}:${scores[language]},`;
    }
    if (signature === '') continue;
    let same = shared.get(signature);
    if (same === undefined) {
      // `for … in` gives integer keys in ascending order, so the last is the highest.
      const set: (number | undefined)[] = new Array(present[present.length - 1]! + 1);
      for (let i = 0; i < present.length; i++) set[present[i]!] = scoresOf[i];
      shared.set(signature, (same = set));
    }
    ngrams.add(ngram, same);
  }
  return { languages: compactLanguages, ngrams: ngrams.parts() };
}
