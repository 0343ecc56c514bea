/**
 * Pairs whose words Apertium dropped. It drops words it reads as implied: a subject
 * pronoun (`***You*** is` → `es`), an auxiliary (`**will** advance` → `avance`). With the
 * marks pinned the pair comes back empty, and an empty pair is no markup at all once
 * rendered (`****` in markdown is not a strong): the emphasis the source had is lost.
 * Such a pair gets its words back, translated on their own (`You` → `Tú`), or as they
 * were when Apertium drops them even alone (`will`), as a segment answered with nothing
 * keeps its source words.
 */

/** A pair of the source with words and no marks inside, that came back empty. */
export interface EmptiedPair {
  readonly pair: number;
  /** Its words in the source. */
  readonly words: string;
}

const WORDLIKE = /[\p{L}\p{N}]/u;

export function emptiedPairs(source: string, answer: string): EmptiedPair[] {
  const out: EmptiedPair[] = [];
  // Innermost pairs only: an outer pair is filled when its inner one is.
  for (const match of source.matchAll(/<g(\d+)>([^<]*)<\/g\1>/g)) {
    const words = match[2]!;
    if (!WORDLIKE.test(words)) continue;
    if (new RegExp(`<g${match[1]}>\\s*</g${match[1]}>`).test(answer)) out.push({ pair: Number(match[1]), words });
  }
  return out;
}

/** `answer` with each emptied pair holding its words again. */
export function refillPairs(answer: string, fills: readonly EmptiedPair[]): string {
  let out = answer;
  for (const { pair, words } of fills) out = out.replace(new RegExp(`<g${pair}>\\s*</g${pair}>`), () => `<g${pair}>${words}</g${pair}>`);
  return out;
}

/** Whether an answer says anything (Apertium answers some words with nothing). */
export function hasWords(text: string): boolean {
  return WORDLIKE.test(text);
}
