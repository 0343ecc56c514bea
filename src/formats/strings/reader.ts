/**
 * Reads an Apple `.strings` file (an old-style property list of string pairs, as
 * CFPropertyList reads it): `"key" = "value";` pairs, `/* … *\/` and `//` comments,
 * quoted strings (`"…"` or `'…'`) with backslash escapes (`\"`, `\\`, `\n`, `\t`,
 * `\r`, `\UXXXX`, octal `\ddd`; any other escaped character stands for itself), and
 * unquoted strings of letters, digits and `_$+/:.-`. Each pair keeps where its value
 * lies, and the comments before it are its notes. A file that does not parse is
 * refused with its line.
 */
import { invalidContent } from '../core/invalid.js';

export interface StringsToken {
  readonly start: number;
  readonly end: number;
  /** The decoded text. */
  readonly text: string;
  /** `"`, `'`, or '' for an unquoted string. */
  readonly quote: string;
}

export interface StringsPair {
  readonly key: StringsToken;
  /** Undefined for the legacy `"key";` form (the value is the key). */
  readonly value?: StringsToken;
  /** The comments since the previous pair, without their delimiters. */
  readonly comments: readonly string[];
}

const UNQUOTED = /[A-Za-z0-9_$+/:.\-]/;
const UNQUOTED_RUN = /[A-Za-z0-9_$+/:.\-]+/y;
const UNQUOTED_WORD = /^[A-Za-z0-9_$+/:.\-]+$/;

function invalid(content: string, at: number, what: string): never {
  return invalidContent('a valid Apple .strings file', content, at, what);
}

export function readStrings(content: string): StringsPair[] {
  if (content.startsWith('bplist')) invalid(content, 0, 'this is a binary property list (a .strings file Xcode compiled into an app or framework); send the source .strings file');
  const pairs: StringsPair[] = [];
  let comments: string[] = [];
  let i = content.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = content.length;

  const skip = (): void => {
    for (;;) {
      while (i < n && /\s/.test(content[i]!)) i++;
      if (content.startsWith('/*', i)) {
        const close = content.indexOf('*/', i + 2);
        if (close < 0) invalid(content, i, 'a /* comment is never closed');
        comments.push(content.slice(i + 2, close).trim());
        i = close + 2;
      } else if (content.startsWith('//', i)) {
        let end = content.indexOf('\n', i);
        if (end < 0) end = n;
        comments.push(content.slice(i + 2, end).trim());
        i = end;
      } else return;
    }
  };

  const token = (what: string): StringsToken => {
    const start = i;
    const c = content[i];
    if (c === '"' || c === "'") {
      let text = '';
      i++;
      for (;;) {
        if (i >= n) invalid(content, start, `a string opened with ${c} is never closed`);
        const d = content[i]!;
        if (d === c) {
          i++;
          return { start, end: i, text, quote: c };
        }
        if (d !== '\\') {
          const next = nextSpecial(content, i, c);
          text += content.slice(i, next);
          i = next;
          continue;
        }
        const [decoded, length] = unescape(content, i);
        text += decoded;
        i += length;
      }
    }
    if (c !== undefined && UNQUOTED.test(c)) {
      UNQUOTED_RUN.lastIndex = i;
      const run = UNQUOTED_RUN.exec(content)![0];
      i += run.length;
      return { start, end: i, text: run, quote: '' };
    }
    return invalid(content, i, `expected ${what}, found ${c === undefined ? 'the end of the file' : JSON.stringify(c)}`);
  };

  for (;;) {
    skip();
    if (i >= n) break;
    const key = token('a quoted key');
    skip();
    let value: StringsToken | undefined;
    if (content[i] === '=') {
      i++;
      skip();
      value = token('a quoted value after "="');
      skip();
    }
    if (content[i] !== ';') invalid(content, i, `expected ";" after the ${value ? 'value' : 'key'}`);
    i++;
    pairs.push({ key, value, comments });
    comments = [];
  }
  return pairs;
}

const SPECIAL: Readonly<Record<string, RegExp>> = { '"': /["\\]/g, "'": /['\\]/g };

/** The next backslash, closing quote or end, from `at`. */
function nextSpecial(content: string, at: number, quote: string): number {
  const pattern = SPECIAL[quote]!;
  pattern.lastIndex = at;
  return pattern.exec(content)?.index ?? content.length;
}

const SIMPLE: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', a: '\u0007', b: '\b', f: '\f', v: '\v' };

/** The escape at `at` (a backslash): its text and length. */
function unescape(content: string, at: number): [string, number] {
  const c = content[at + 1];
  if (c === undefined) return ['', 1];
  if (c === 'U' || c === 'u') {
    const hex = /^[0-9a-fA-F]{1,4}/.exec(content.slice(at + 2, at + 6))?.[0] ?? '';
    return hex ? [String.fromCharCode(parseInt(hex, 16)), 2 + hex.length] : [c, 2];
  }
  if (c >= '0' && c <= '7') {
    const octal = /^[0-7]{1,3}/.exec(content.slice(at + 1, at + 4))![0];
    return [String.fromCharCode(parseInt(octal, 8)), 1 + octal.length];
  }
  return [SIMPLE[c] ?? c, 2];
}

/**
 * A translated value as a quoted string the reader (ours and CFPropertyList) gives back
 * unchanged: the quote and backslash escaped; a line break, tab or carriage return
 * written as the source wrote them (a backslash before a raw line break, raw, else `\n`,
 * `\t`, `\r`); other control characters as `\UXXXX`. Characters outside ASCII are written
 * as they are (the file is Unicode text).
 */
export function writeQuoted(text: string, quote: string, sourceRaw: string): string {
  // An unquoted source value stays unquoted while its translation is still an old-style word;
  // anything else (a space, a letter outside ASCII) needs quotes for CFPropertyList to read it.
  if (quote === '' && UNQUOTED_WORD.test(text)) return text;
  const q = quote || '"';
  let out = q;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const code = text.charCodeAt(i);
    if (c === q || c === '\\') out += `\\${c}`;
    // A line break as the source value wrote its own: escaped by a backslash, raw, or `\n`.
    else if (c === '\n') out += sourceRaw.includes('\\\n') ? '\\\n' : sourceRaw.includes('\n') ? c : '\\n';
    else if (c === '\t') out += sourceRaw.includes('\t') ? c : '\\t';
    else if (c === '\r') out += sourceRaw.includes('\r') ? c : '\\r';
    else if (code < 0x20 || code === 0x7f) out += `\\U${code.toString(16).padStart(4, '0')}`;
    else out += c;
  }
  return out + q;
}
