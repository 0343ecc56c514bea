/**
 * The detector this service runs: eld's own detection code over its medium n-gram table,
 * the table read as data (eld-table.ts: no parser memory left behind, as importing its
 * module leaves) and cut to the languages asked for as it is read (compact-table.ts: about
 * half the heap, the same answers).
 *
 * eld's package exports only entries that import their table as code, so its detector
 * factory and its table are reached beside the `eld/medium` entry; an eld release that
 * moves them fails test/detection/eld-table.test.ts rather than the service.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { compactNgramTable, type NgramTable } from './compact-table.js';
import { readEldTable } from './eld-table.js';

/** The part of an eld instance this service uses. */
export interface Eld {
  detect(text: string): { language: string; getScores(): Record<string, number>; isReliable(): boolean };
  setLanguageSubset(languages: string[]): unknown;
}

/** What eld's `loadData` takes: a table module's `ngramsData`. */
interface EldTable {
  readonly type: string;
  readonly languages: Record<string, string>;
  readonly ngrams: NgramTable;
}

interface EldFactory {
  createEld(): { instance: Eld; loadData(table: EldTable): unknown };
}

/** eld's `src/` folder: `entries/static.medium.js` is what `eld/medium` resolves to. */
const ELD_SOURCE = new URL('..', import.meta.resolve('eld/medium'));
export const MEDIUM_TABLE_FILE = fileURLToPath(new URL('ngrams/medium.js', ELD_SOURCE));

/** A new eld instance over the medium table, answering only among `languages` (eld's codes). */
export async function loadEldDetector(languages: readonly string[]): Promise<Eld> {
  const [{ createEld }, text] = await Promise.all([
    import(new URL('languageDetector.js', ELD_SOURCE).href) as Promise<EldFactory>,
    readFile(MEDIUM_TABLE_FILE, 'utf8'),
  ]);
  const table = readEldTable(text, MEDIUM_TABLE_FILE);
  const kept = Object.keys(table.languages).filter((index) => languages.includes(table.languages[index]!));
  const compact = compactNgramTable(table.ngrams(), table.languages, new Set(kept));
  const { instance, loadData } = createEld();
  loadData({ type: table.type, languages: compact.languages, ngrams: compact.ngrams });
  instance.setLanguageSubset([...languages]);
  return instance;
}
