/**
 * Which glossary terms a call's segments contain, and which answers lack a required
 * translation. A term is found in a segment as segments/terms.ts finds it (whole words,
 * ignoring case); an answer has the required translation when it contains it ignoring
 * case — anything stricter would reject a translation whose grammar capitalises it.
 */
import type { EngineLanguage, EngineSegment, GlossaryTerm } from './engine.js';
import { containsTerm, TermMatcher } from '../segments/terms.js';

export interface GlossaryMiss {
  readonly lang: string;
  /** The segment's id in the call. */
  readonly id: string;
  readonly terms: readonly { readonly term: string; readonly required: string }[];
}

/** The entries whose term occurs in some segment, once each, in glossary order. */
export function termsIn(segments: readonly EngineSegment[], glossary: readonly GlossaryTerm[]): GlossaryTerm[] {
  const found = new Set<number>();
  const matcher = new TermMatcher(glossary.map((entry) => entry.term), { ignoreCase: true });
  for (const segment of segments) for (const match of matcher.find(segment.text)) found.add(match.term);
  return [...found].sort((a, b) => a - b).map((index) => glossary[index]!);
}

/** Pairs (target, segment) whose translation lacks the required translation of a term the segment contains. */
export function glossaryMisses(
  segments: readonly EngineSegment[],
  targets: readonly EngineLanguage[],
  glossary: readonly GlossaryTerm[],
  done: ReadonlyMap<string, ReadonlyMap<string, string>>,
): GlossaryMiss[] {
  const misses: GlossaryMiss[] = [];
  const matcher = new TermMatcher(glossary.map((entry) => entry.term), { ignoreCase: true });
  for (const segment of segments) {
    const entries = [...new Set(matcher.find(segment.text).map((match) => match.term))].map((i) => glossary[i]!);
    if (entries.length === 0) continue;
    for (const target of targets) {
      const translated = done.get(target.code)?.get(segment.id);
      if (translated === undefined) continue;
      const lacking = entries
        .filter((entry) => entry.translations[target.code] !== undefined && !containsTerm(translated, entry.translations[target.code]!))
        .map((entry) => ({ term: entry.term, required: entry.translations[target.code]! }));
      if (lacking.length > 0) misses.push({ lang: target.code, id: segment.id, terms: lacking });
    }
  }
  return misses;
}
