/**
 * What the detector (detection/eld-detector.ts) takes from eld beside its public entries,
 * written for eld 2.1. eld exports only entries that import a whole n-gram table as code
 * (`eld/medium`: ~90 MB of parser memory that stays in the process's RSS, and the table as
 * ~58 MB of objects). The service instead runs eld's own detection code over a compacted
 * table made at build time (scripts/generate-eld-table.mjs), which takes two of eld's
 * unexported modules:
 *
 * - `languageDetector.js`'s `createEld()`, the factory every eld entry calls, with its
 *   `loadData(table)`: at run time, to make a detector over the compacted table;
 * - `ngrams/<size>.js`'s `ngramsData`: at build time only, imported as the module it is, to
 *   make the compacted table from.
 *
 * When either is not where eld 2.1 keeps it, `createEldOver` answers undefined and the
 * caller falls back to eld's public `eld/medium` entry (the same answers, the memory
 * above). test/library-patches/eld.test.ts fails, naming eld's version, when that happens.
 */

/** The part of an eld instance this service uses (eld's index.d.ts, `Eld`). */
export interface Eld {
  detect(text: string): { language: string; getScores(): Record<string, number>; isReliable(): boolean };
  setLanguageSubset(languages: string[]): unknown;
}

/** What eld's `loadData` takes: a table module's `ngramsData`, its n-grams any object eld can index. */
export interface EldTableData {
  readonly type: string;
  readonly languages: Record<string, string>;
  readonly ngrams: object;
}

interface EldFactory {
  createEld(): { instance: Eld; loadData(table: EldTableData): unknown };
}

/** eld's `src/` folder: `entries/static.medium.js` is what `eld/medium` resolves to. */
const ELD_SOURCE = new URL('..', import.meta.resolve('eld/medium'));

/** A new eld instance over `table`, answering only among `languages`; undefined when eld's factory is not where eld 2.1 keeps it. */
export async function createEldOver(table: EldTableData, languages: readonly string[]): Promise<Eld | undefined> {
  let factory: EldFactory['createEld'];
  try {
    ({ createEld: factory } = (await import(new URL('languageDetector.js', ELD_SOURCE).href)) as EldFactory);
  } catch {
    return undefined;
  }
  if (typeof factory !== 'function') return undefined;
  const { instance, loadData } = factory();
  if (typeof loadData !== 'function' || typeof instance?.detect !== 'function') return undefined;
  loadData(table);
  instance.setLanguageSubset([...languages]);
  return instance;
}

/** eld as its package exports it (`eld/medium`), answering only among `languages`: the fallback. */
export async function publicEld(languages: readonly string[]): Promise<Eld> {
  const { eld } = (await import('eld/medium')) as { eld: Eld & { newInstance(): Eld } };
  const instance = eld.newInstance();
  instance.setLanguageSubset([...languages]);
  return instance;
}

/** eld's n-gram table of `size` (`medium`, …) as its module holds it; build time and tests only. */
export async function importEldTable(size: string): Promise<EldTableData> {
  const { ngramsData } = (await import(new URL(`ngrams/${size}.js`, ELD_SOURCE).href)) as { ngramsData: EldTableData };
  return ngramsData;
}

/** The installed eld's version, from its package.json (which eld's exports do not list). */
export async function eldVersion(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const manifest = JSON.parse(await readFile(new URL('../package.json', ELD_SOURCE), 'utf8')) as { version: string };
  return manifest.version;
}
