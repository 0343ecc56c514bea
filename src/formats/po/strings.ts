/**
 * gettext's C-style string literals: decoding a `"…"` token of a PO file and writing one
 * back. Writing escapes exactly what a PO string must (`\\`, `\"`, control characters);
 * UTF-8 text stays as it is.
 */
import { backslashEscaped } from '../core/escape.js';

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', a: '\x07', b: '\b', f: '\f', v: '\v', '?': '?', "'": "'" };

/**
 * The text of the literal `line.slice(from)` starting at its `"`: the decoded text and
 * the offset after the closing quote, or an error naming what was expected.
 */
export function readLiteral(line: string, from: number): { text: string; end: number } | string {
  if (line.charCodeAt(from) !== 34 /* " */) return 'a string in double quotes';
  let text = '';
  let run = from + 1;
  for (let i = from + 1; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"') return { text: text + line.slice(run, i), end: i + 1 };
    if (c !== '\\') continue;
    text += line.slice(run, i);
    const next = line[i + 1];
    if (next === undefined) break;
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      text += simple;
      i++;
    } else if (next >= '0' && next <= '7') {
      const octal = /^[0-7]{1,3}/.exec(line.slice(i + 1, i + 4))![0];
      text += String.fromCharCode(parseInt(octal, 8));
      i += octal.length;
    } else if (next === 'x' && /^[0-9a-fA-F]/.test(line[i + 2] ?? '')) {
      const hex = /^[0-9a-fA-F]+/.exec(line.slice(i + 2))![0];
      text += String.fromCharCode(parseInt(hex, 16) & 0xff);
      i += 1 + hex.length;
    } else return `a known escape sequence, not \\${next}`;
    run = i + 1;
  }
  return 'the closing double quote of the string';
}

const NEEDS_ESCAPE = /["\\\n\r\t\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;
const ESCAPE_ONE = /["\\\n\r\t\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/** The inside of a PO string literal for `text`. */
export function escapeLiteral(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  return backslashEscaped(text, ESCAPE_ONE, (code) => `\\${code.toString(8).padStart(3, '0')}`);
}

/**
 * A value as one or more PO literals: one line, or, when `multiline` (the source wrote
 * its msgid so) and the text has inner line breaks, `""` and a line per `\n`, the way
 * gettext's tools lay out such messages.
 */
export function writeLiterals(text: string, multiline: boolean, eol: string): string {
  const pieces = text.split(/(?<=\n)(?=.)/s);
  if (!multiline || pieces.length < 2) return `"${escapeLiteral(text)}"`;
  return `""${pieces.map((piece) => `${eol}"${escapeLiteral(piece)}"`).join('')}`;
}
