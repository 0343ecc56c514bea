/**
 * The lines an entry owns in its file (LocaleEntry.block), for a format that knows where an
 * entry starts and ends (an Android resource with the comment before it, a `.stringsdict`
 * key and its dict): the whole lines from `start` to `end`, to the next line's start. An
 * entry that shares a line with other text (an XML file written on one line) keeps to its
 * own bytes instead: whole lines would take the root element's tags along.
 */
export function entryLines(text: string, start: number, end: number): [number, number] {
  const from = start <= 0 ? 0 : text.lastIndexOf('\n', start - 1) + 1;
  const newline = text.indexOf('\n', end);
  const to = newline === -1 ? text.length : newline + 1;
  return [/^[ \t]*$/.test(text.slice(from, start)) ? from : start, /^[ \t\r]*\n?$/.test(text.slice(end, to)) ? to : end];
}
