/**
 * The detector this service runs: eld's own detection code over its medium n-gram table,
 * cut to the service's languages and packed at build time (lean-table.ts: about a tenth of
 * the heap eld's own entry takes, the same answers). Making an eld instance over that table
 * takes an unexported eld module (library-patches/eld.ts); where that, or the table file,
 * is missing, the detector is eld's public `eld/medium` entry: the same answers, more
 * memory.
 */
import { createEldOver, publicEld, type Eld } from '../library-patches/eld.js';
import { readLeanTable } from './lean-table.js';

export type { Eld } from '../library-patches/eld.js';

/** How the detector was made: over the lean table, or eld's public entry (the fallback). */
export type EldLoader = 'lean table' | 'eld/medium';

/** A new eld instance answering only among `languages` (eld's codes), and how it was made. */
export async function loadEldDetector(languages: readonly string[], options: { lean?: boolean } = {}): Promise<{ eld: Eld; loader: EldLoader }> {
  if (options.lean !== false) {
    const lean = await readLeanTable().catch(() => undefined);
    const sameLanguages = lean !== undefined && [...lean.file.subset].sort().join() === [...languages].sort().join();
    const eld = sameLanguages ? await createEldOver(lean.table, languages) : undefined;
    if (eld !== undefined) return { eld, loader: 'lean table' };
  }
  return { eld: await publicEld(languages), loader: 'eld/medium' };
}
