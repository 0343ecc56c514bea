/**
 * Escapers for translated text runs, one per place a run can land. Only translated text
 * goes through them; untranslated bytes are copied from the source.
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

/**
 * Markdown inline text. Characters that could open inline syntax are backslash-escaped;
 * a line start that could open a block (`#`, `>`, `-`, `+`, `1.`) is escaped too.
 * `newline` is what a line break in the translation becomes (the container prefix of
 * the source paragraph, or a space where the segment must stay on one line).
 */
export function markdownEscape(options: {
  readonly newline: string;
  readonly lineStart: boolean;
  readonly table?: boolean;
}): Escaper {
  return (run, at) => {
    let text = run.replace(/[\\`*_[\]<]/g, '\\$&');
    // An entity-looking `&` would be decoded by a markdown reader.
    text = text.replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&');
    if (options.table) text = text.replace(/\|/g, '\\|');
    if (options.lineStart) {
      const lines = text.split('\n');
      text = lines.map((line, i) => (i > 0 || at.first ? escapeLineStart(line) : line)).join('\n');
    }
    return text.replace(/\r?\n/g, options.newline);
  };
}

function escapeLineStart(line: string): string {
  const lead = /^[ \t]*/.exec(line)![0];
  const rest = line.slice(lead.length);
  if (/^(?:#{1,6}(?:[ \t]|$)|>|[-+](?:[ \t]|$)|=+[ \t]*$)/.test(rest)) return `${lead}\\${rest}`;
  const ordered = /^(\d{1,9})([.)])(?=[ \t]|$)/.exec(rest);
  if (ordered) return `${lead}${ordered[1]}\\${rest.slice(ordered[1]!.length)}`;
  return line;
}

/** A link or image title inside `"…"`, `'…'` or `(…)`. */
export function markdownTitleEscape(close: string): Escaper {
  return (run) => run.replace(/[\\"'()]/g, (c) => (c === '\\' || c === close || (close === ')' && c === '(') ? `\\${c}` : c)).replace(/\r?\n/g, ' ');
}
