/**
 * The detector's table as a file made at build time (scripts/generate-eld-table.mjs):
 * eld's medium n-gram table cut to the service's languages and packed (compact-table.ts,
 * packed-ngrams.ts), written as JSON. Reading it back costs a JSON parse whose garbage dies
 * young, where importing eld's table module left the parser's memory in the process for
 * good (docs/detection.md, "Memory"); and eld's source is no longer read as text at run time.
 * test/library-patches/eld.test.ts checks the file against what eld installed gives now.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { compactNgramParts, type NgramScores } from './compact-table.js';
import { packedNgramTable, type CompactScores, type NgramTable } from './packed-ngrams.js';

/** Where the build writes the table (a generated file, not in git). */
export const LEAN_TABLE_FILE = fileURLToPath(new URL('../../generated/eld-medium.json', import.meta.url));

/** The file's shape; `sets` hold (language, score) pairs one after another. */
export interface LeanTableFile {
  readonly eld: { readonly version: string; readonly table: string; readonly type: string };
  /** eld's codes the table answers among, as the detector's subset is set. */
  readonly subset: readonly string[];
  /** Compact index → eld's language code; index 0 is ''. */
  readonly languages: Record<string, string>;
  readonly keys: readonly number[];
  readonly setOfKey: readonly number[];
  readonly sets: readonly (readonly number[])[];
  readonly unpacked: ReadonlyArray<readonly [string, readonly number[]]>;
}

/** The file for eld's table (`ngrams`: its `ngramsData`) cut to `subset` (eld's codes). */
export function leanTableOf(
  eld: LeanTableFile['eld'],
  table: { readonly languages: Record<string, string>; readonly ngrams: Readonly<Record<string, NgramScores>> },
  subset: readonly string[],
): LeanTableFile {
  const kept = Object.keys(table.languages).filter((index) => subset.includes(table.languages[index]!));
  const { languages, ngrams } = compactNgramParts(Object.entries(table.ngrams), table.languages, new Set(kept));
  return {
    eld,
    subset: [...subset],
    languages,
    keys: ngrams.keys,
    setOfKey: ngrams.setOfKey,
    sets: ngrams.sets.map(pairsOf),
    unpacked: ngrams.unpacked.map(([ngram, set]) => [ngram, pairsOf(set)] as const),
  };
}

/** The table in `file` as eld's `loadData` takes it, with the subset it was cut to. */
export async function readLeanTable(path = LEAN_TABLE_FILE): Promise<{ file: LeanTableFile; table: { type: string; languages: Record<string, string>; ngrams: NgramTable } }> {
  const file = JSON.parse(await readFile(path, 'utf8')) as LeanTableFile;
  const ngrams = packedNgramTable({
    keys: file.keys,
    setOfKey: file.setOfKey,
    sets: file.sets.map(setOf),
    unpacked: file.unpacked.map(([ngram, pairs]) => [ngram, setOf(pairs)] as const),
  });
  return { file, table: { type: file.eld.type, languages: file.languages, ngrams } };
}

function pairsOf(set: CompactScores): number[] {
  const pairs: number[] = [];
  set.forEach((score, language) => {
    if (score !== undefined) pairs.push(language, score);
  });
  return pairs;
}

/** A score set as eld walks it: holes (not undefined) where a language has no score. */
function setOf(pairs: readonly number[]): CompactScores {
  const set: (number | undefined)[] = new Array(pairs.length > 0 ? pairs[pairs.length - 2]! + 1 : 0);
  for (let i = 0; i < pairs.length; i += 2) set[pairs[i]!] = pairs[i + 1]!;
  return set;
}
