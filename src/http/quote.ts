/**
 * Input quoted in an error message, bounded: a message names what was wrong without
 * echoing a megabyte back (a 1M-character target code gives a short answer).
 */
const QUOTED_CHARS = 40;

/** `value` as a JSON string literal, cut to its first QUOTED_CHARS characters with "…" when longer. */
export function quote(value: string): string {
  if (value.length <= QUOTED_CHARS) return JSON.stringify(value);
  return `${JSON.stringify(value.slice(0, QUOTED_CHARS))}… (${value.length} characters)`;
}
