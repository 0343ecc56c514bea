/**
 * Escapers for translated text runs, one per place a run can land. Only translated text
 * goes through them; untranslated bytes are copied from the source. Markdown's, which
 * follow the source's own escapes, are in markdown-escape.ts.
 */
import type { Escaper } from './template.js';

export const plainEscape: Escaper = (run) => run;

/** HTML text: `& < >` are the characters that could change the markup. */
export const htmlTextEscape: Escaper = (run) =>
  run.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));

/**
 * An HTML attribute value inside the given quote. An unquoted value cannot grow quotes
 * from a run-level escaper, so every character an unquoted value may not hold becomes a
 * character reference instead.
 */
export function htmlAttrEscape(quote: '"' | "'" | ''): Escaper {
  if (quote === '') {
    return (run) => run.replace(/[&\s"'=<>`]/g, (c) => (c === '&' ? '&amp;' : `&#${c.codePointAt(0)};`));
  }
  const entity = quote === '"' ? '&quot;' : '&#39;';
  return (run) => run.replace(/[&<"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === quote ? entity : c));
}

/** Characters JSON.stringify may change: quote, backslash, controls, surrogates (a lone one is escaped). */
const JSON_SPECIAL = /["\\\u0000-\u001f\ud800-\udfff]/;

/** The inside of a JSON string literal (without the quotes). */
export const jsonStringEscape: Escaper = (run) => (JSON_SPECIAL.test(run) ? JSON.stringify(run).slice(1, -1) : run);
