/**
 * Writing a translated string back into a YAML scalar's place, in the source's style
 * where the text allows it: plain when it would read back as the same string (not as a
 * boolean, number or null, in YAML 1.1 or 1.2, and breaking no syntax), else double
 * quoted; single quoted with `''`; double quoted with escapes; block scalars line by line
 * at the block's indentation.
 */
import { backslashEscaped } from '../core/escape.js';

/**
 * Plain text that YAML would read as something else, or not read. Anywhere in a line:
 * edge white space, `: ` or ` #`, a line break or control character. YAML's white space
 * is the space and the tab only (not JavaScript's `\s`): a colon between no-break spaces,
 * as French writes it, is text.
 */
const LINE_UNSAFE = [String.raw`^[ \t]|[ \t]$`, String.raw`:(?:[ \t]|$)`, String.raw`[ \t]#`, String.raw`[\n\r\u0000-\u001f\u007f\u0085\u2028\u2029\ufeff]`];
/**
 * And at a scalar's start: a leading indicator, and the words and numbers of the core and
 * 1.1 schemas (`yes`, `no`, `on`, `off`, `~`, `0x1F`, `1_000`).
 */
const PLAIN_UNSAFE = new RegExp(
  [
    ...LINE_UNSAFE,
    String.raw`^[\-?:,[\]{}#&*!|>'"%@` + '`' + String.raw`]`,
    String.raw`^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~)$`,
    String.raw`^[-+]?(?:[\d_]+(?:\.[\d_]*)?|\.\d+)(?:[eE][-+]?\d+)?$`,
    String.raw`^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$`,
    String.raw`^[-+]?0[xob]`,
    String.raw`^\d{4}-\d\d?-\d\d?`,
    String.raw`^<<$|^=$|^---|^\.\.\.`,
  ].join('|'),
);
/**
 * A later line of a multi-line plain scalar outside flow collections (PyYAML reads a `?`
 * there as a key): indicators and schema words mean nothing there (`%{count} items`
 * may start one); a `#` would start a comment, and `---` or
 * `...` end the document on a line of their own.
 */
const CONTINUATION_UNSAFE = new RegExp([...LINE_UNSAFE, '^#', String.raw`^---|^\.\.\.`].join('|'));
const FLOW_CHARACTERS = /[,[\]{}]/;

/** Whether `text` written plain reads back as itself; `continuation` for a later line of a multi-line plain scalar. */
export function isPlainSafe(text: string, inFlow: boolean, continuation = false): boolean {
  return text !== '' && !(continuation && !inFlow ? CONTINUATION_UNSAFE : PLAIN_UNSAFE).test(text) && !(inFlow && FLOW_CHARACTERS.test(text));
}

const DOUBLE_ESCAPE = /["\\\u0000-\u001f\u007f\u0085\u2028\u2029\ufeff]/g;

function doubleQuoted(text: string): string {
  return `"${backslashEscaped(text, DOUBLE_ESCAPE, (code) => `\\u${code.toString(16).padStart(4, '0')}`)}"`;
}

function singleQuoted(text: string): string {
  return /[\n\r\u0000-\u0008\u000b-\u001f\u007f\ufeff]/.test(text) ? doubleQuoted(text) : `'${text.replace(/'/g, "''")}'`;
}

export type ScalarStyle = 'PLAIN' | 'QUOTE_DOUBLE' | 'QUOTE_SINGLE';

export function writeFlowScalar(text: string, style: ScalarStyle, inFlow: boolean): string {
  if (style === 'QUOTE_SINGLE') return singleQuoted(text);
  if (style === 'PLAIN' && isPlainSafe(text, inFlow)) return text;
  return doubleQuoted(text);
}

/**
 * A block scalar's content lines from the text (its lines, unindented): each non-empty
 * line at `indent`, joined with the file's line end. A translation may not start with a
 * space on its first line (the block would read its indentation from it).
 */
export function writeBlockLines(text: string, indent: string, eol: string): string {
  return text
    .split('\n')
    .map((line, i) => (line === '' ? '' : indent + (i === 0 ? line.replace(/^[ \t]+/, '') : line)))
    .join(eol);
}
