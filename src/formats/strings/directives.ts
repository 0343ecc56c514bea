/**
 * The format directives of Apple's string formats (`String(format:)`, NSString's
 * `stringWithFormat:`, the `%#@var@` references of a `.stringsdict` or String Catalog):
 * each must come back unchanged, so each is kept as a mark. The general placeholder
 * scanner does not know `%@`, `%lld` or `%#@var@`.
 */

const DIRECTIVE = /%(?:\d+\$)?#@[A-Za-z_][A-Za-z0-9_]*@|%(?:\d+\$)?[-+ #0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|q|L|z|t|j)?[@dDiuUxXoOfFeEgGcCsSpaA%]/g;

/** The directives of `text`, as sorted, disjoint `[start, end]` pairs. */
export function appleDirectiveSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  if (!text.includes('%')) return spans;
  DIRECTIVE.lastIndex = 0;
  for (const match of text.matchAll(DIRECTIVE)) spans.push([match.index, match.index + match[0].length]);
  return spans;
}
