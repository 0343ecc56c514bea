/**
 * Java MessageFormat's `{N,choice,…}` arguments (java.text.ChoiceFormat): their limits and
 * `#`/`<` separators are syntax the general placeholder scanner does not know (it reads
 * ICU's `plural`/`select`), so the whole argument is kept as one mark, untranslated.
 * `{N}`, `{N,number,…}` and `{N,date,…}` are ICU-shaped and the scanner keeps them.
 */

const CHOICE_START = /\{\s*\d+\s*,\s*choice\s*,/g;

/** The `{N,choice,…}` arguments of `text` as sorted `[start, end]` pairs (braces balanced; an unclosed one runs to the end). */
export function choiceSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  CHOICE_START.lastIndex = 0;
  for (let match = CHOICE_START.exec(text); match; match = CHOICE_START.exec(text)) {
    let depth = 0;
    let end = text.length;
    for (let i = match.index; i < text.length; i++) {
      if (text[i] === '{') depth++;
      else if (text[i] === '}' && --depth === 0) {
        end = i + 1;
        break;
      }
    }
    spans.push([match.index, end]);
    CHOICE_START.lastIndex = end;
  }
  return spans;
}
