/**
 * Reads a Java `.properties` file the way `java.util.Properties.load(Reader)` does (its
 * Javadoc is the spec): natural lines end at `\n`, `\r` or `\r\n`; a line ending in an
 * odd number of backslashes continues on the next, whose leading white space is
 * dropped; a line whose first non-blank character is `#` or `!` is a comment; the key
 * runs to the first unescaped `=`, `:` or white space, then white space and one `=` or
 * `:` separate it from the value; `\uXXXX`, `\t`, `\n`, `\r`, `\f` are escapes and any
 * other escaped character stands for itself. Each entry keeps where its value lies.
 */
import { ServiceError } from '../../errors.js';

/** Stands in the decoded value for a line continuation, so it can go back where it was. */
export const CONTINUATION = '\ue000';

export interface PropertiesEntry {
  readonly key: string;
  /** The decoded value; each line continuation is CONTINUATION when `continuations` is not empty. */
  readonly value: string;
  /** The value's source range (from its first character to the end of its logical line). */
  readonly start: number;
  readonly end: number;
  /** The source bytes of each continuation (backslash, line end, next line's indentation), in order. */
  readonly continuations: readonly string[];
  /** The comment lines right above the entry, without their `#` or `!`. */
  readonly comments: readonly string[];
  /** 1-based line of the key. */
  readonly line: number;
}

/** The end of a run of plain value characters: a backslash or a line end (global, for `lastIndex`). */
const RUN_END = /[\\\r\n]/g;

const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\f';
const isLineEnd = (c: string | undefined): boolean => c === '\n' || c === '\r';

export function readProperties(content: string): PropertiesEntry[] {
  const entries: PropertiesEntry[] = [];
  let comments: string[] = [];
  let line = 1;
  let i = content.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = content.length;
  const lineEnd = (at: number): number => (content[at] === '\r' && content[at + 1] === '\n' ? at + 2 : at + 1);
  while (i < n) {
    while (isBlank(content[i])) i++;
    if (i >= n) break;
    if (isLineEnd(content[i])) {
      comments = [];
      i = lineEnd(i);
      line++;
      continue;
    }
    if (content[i] === '#' || content[i] === '!') {
      let end = i;
      while (end < n && !isLineEnd(content[end])) end++;
      comments.push(content.slice(i + 1, end).trim());
      i = end < n ? lineEnd(end) : n;
      line++;
      continue;
    }
    const keyLine = line;
    const continuations: string[] = [];
    // The key: to an unescaped separator or white space.
    let key = '';
    for (;;) {
      if (i >= n || isLineEnd(content[i])) break;
      const c = content[i]!;
      if (c === '=' || c === ':' || isBlank(c)) break;
      if (c === '\\') {
        const decoded = escape(content, i, line);
        if (decoded.continuation) {
          i = decoded.next;
          line++;
          continue;
        }
        key += decoded.text;
        i = decoded.next;
      } else {
        key += c;
        i++;
      }
    }
    while (isBlank(content[i])) i++;
    if (content[i] === '=' || content[i] === ':') i++;
    while (isBlank(content[i])) i++;
    // A continuation right after the separator: the value starts on the next line.
    while (content[i] === '\\' && isLineEnd(content[i + 1])) {
      i = lineEnd(i + 1);
      line++;
      while (isBlank(content[i])) i++;
    }
    const start = i;
    let value = '';
    const withMarks = !content.slice(start, Math.min(n, start + 100_000)).includes(CONTINUATION);
    for (;;) {
      // The run up to the next backslash or line end, copied at once.
      RUN_END.lastIndex = i;
      const stop = RUN_END.exec(content)?.index ?? n;
      if (stop > i) {
        value += content.slice(i, stop);
        i = stop;
      }
      if (i >= n || isLineEnd(content[i])) break;
      const decoded = escape(content, i, line);
      if (decoded.continuation) {
        if (withMarks) {
          value += CONTINUATION;
          continuations.push(content.slice(i, decoded.next));
        }
        i = decoded.next;
        line++;
      } else {
        value += decoded.text;
        i = decoded.next;
      }
    }
    entries.push({ key, value, start, end: i, continuations, comments, line: keyLine });
    comments = [];
    if (i < n) {
      i = lineEnd(i);
      line++;
    }
  }
  return entries;
}

/** The escape at `at` (a backslash): what it decodes to and where it ends; a continuation eats the next line's indentation. */
function escape(content: string, at: number, line: number): { text: string; next: number; continuation: boolean } {
  const c = content[at + 1];
  if (c === undefined) return { text: '', next: at + 1, continuation: false };
  if (c === '\n' || c === '\r') {
    let next = c === '\r' && content[at + 2] === '\n' ? at + 3 : at + 2;
    while (isBlank(content[next])) next++;
    return { text: '', next, continuation: true };
  }
  if (c === 'u') {
    const hex = content.slice(at + 2, at + 6);
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
      throw new ServiceError('invalid_request', `The content is not a valid Java properties file: line ${line}: expected four hexadecimal digits after \\u (Java's Properties.load refuses "\\u${hex}").`);
    }
    return { text: String.fromCharCode(parseInt(hex, 16)), next: at + 6, continuation: false };
  }
  const simple = c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c === 'f' ? '\f' : c;
  return { text: simple, next: at + 2, continuation: false };
}
