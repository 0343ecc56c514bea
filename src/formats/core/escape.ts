/**
 * Escapers for translated text runs, one per place a run can land. Only translated text
 * goes through them; untranslated bytes are copied from the source. Markdown's, which
 * follow the source's own escapes, are in markdown/escapes.ts.
 */
import type { Escaper } from './document.js';
import * as charCodes from './char-codes.js';
// Module-local constants, not imported bindings, for the inner loops (why: char-codes.ts).
const { AMPERSAND, CASE_BIT, DIGIT_0, DIGIT_9, EXCLAMATION, GREATER_THAN, HASH, LESS_THAN, LOWER_A, LOWER_Z, QUESTION, SLASH } = charCodes;

export const plainEscape: Escaper = (run) => run;

const SHORT_ESCAPES: Readonly<Record<string, string>> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `text` with each character `pattern` (global) matches written as a C-style escape: `\"`,
 * `\\`, `\n`, `\r` or `\t`, any other as `other` writes its code (PO and YAML differ there).
 */
export function backslashEscaped(text: string, pattern: RegExp, other: (code: number) => string): string {
  return text.replace(pattern, (c) => SHORT_ESCAPES[c] ?? other(c.charCodeAt(0)));
}

function isAsciiAlphanumeric(c: number): boolean {
  return (c >= DIGIT_0 && c <= DIGIT_9) || ((c | CASE_BIT) >= LOWER_A && (c | CASE_BIT) <= LOWER_Z);
}

/**
 * HTML text with as little escaping as keeps it text: `&` before a letter, digit or `#`
 * (a character reference) becomes `&amp;`, `<` before a letter, digit, `/`, `!` or `?` (a
 * tag, comment or declaration) becomes `&lt;`; elsewhere they stay as they are (`AT & T`,
 * `a < b`). `>` is always `&gt;`, as serializers write it (never needed, never harmful).
 * `markupFollows`: the text ends where a tag's or placeholder's bytes start, so a last
 * `&` or `<` is escaped too.
 */
export function escapeHtmlText(text: string, markupFollows: boolean): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let escaped: string;
    if (c === GREATER_THAN) escaped = '&gt;';
    else if (c === AMPERSAND || c === LESS_THAN) {
      const next = text.charCodeAt(i + 1);
      const isMarkup =
        i + 1 === text.length
          ? markupFollows
          : isAsciiAlphanumeric(next) || (c === AMPERSAND ? next === HASH : next === SLASH || next === EXCLAMATION || next === QUESTION);
      if (!isMarkup) continue;
      escaped = c === AMPERSAND ? '&amp;' : '&lt;';
    } else continue;
    out += text.slice(from, i) + escaped;
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** One run of HTML text (a run before a token is followed by markup). */
export const htmlTextEscape: Escaper = (run, at) => escapeHtmlText(run, !at.last);

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
