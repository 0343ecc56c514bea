/**
 * The byte-exact judgement of docs/formats.md ("Byte-exact under pseudo"): a document
 * translated by the pseudo engine, with the pseudo marks removed, must be the source byte
 * for byte. Two differences are allowed and nothing else:
 *  - the html `lang`/`dir` edits, which are the document's own patches: the expected
 *    output is the identity render for the same target (source + those patches only);
 *  - an escape decoded (or encoded) inside translated text: `&#39;` ↔ `'` in html and
 *    markdown, `\u00e9` ↔ `é` in a JSON string. A markdown backslash escape is a source
 *    byte like any other and must stay.
 * Shared by the real-world bench and the sampled test in `npm test`.
 */
import { decodeHTML } from 'entities';
import type { ExtractedDocument, Format, RenderTarget } from '../../src/formats/format.js';
import { identityRender, pseudoRender, unpseudo } from './helpers.js';

const HTML_REFERENCE = /&(?:#[0-9]{1,7};?|#[xX][0-9a-fA-F]{1,6};?|[A-Za-z][A-Za-z0-9]{1,31};?)/y;
const JSON_ESCAPE = /\\(?:u[0-9a-fA-F]{4}(?:\\u[0-9a-fA-F]{4})?|["\\/bfnrt])/y;

/** The escape starting at `at`, as [length, decoded], or undefined. */
type EscapeReader = (text: string, at: number) => readonly [number, string] | undefined;

const readHtmlReference: EscapeReader = (text, at) => {
  if (text.charCodeAt(at) !== 38 /* & */) return undefined;
  HTML_REFERENCE.lastIndex = at;
  const match = HTML_REFERENCE.exec(text);
  if (!match) return undefined;
  const decoded = decodeHTML(match[0]);
  return decoded === match[0] ? undefined : [match[0].length, unpseudo(decoded)];
};

const readJsonEscape: EscapeReader = (text, at) => {
  if (text.charCodeAt(at) !== 92 /* \ */) return undefined;
  JSON_ESCAPE.lastIndex = at;
  const match = JSON_ESCAPE.exec(text);
  if (!match) return undefined;
  return [match[0].length, unpseudo(JSON.parse(`"${match[0]}"`) as string)];
};

/** Java's Properties.load escapes: `\uXXXX`, and a backslash before any other character stands for it (`\:` is `:`). */
const readPropertiesEscape: EscapeReader = (text, at) => {
  if (text.charCodeAt(at) !== 92 /* \ */ || at + 1 >= text.length) return undefined;
  const next = text[at + 1]!;
  if (next === 'u') {
    const hex = text.slice(at + 2, at + 6);
    return /^[0-9a-fA-F]{4}$/.test(hex) ? [6, unpseudo(String.fromCharCode(parseInt(hex, 16)))] : undefined;
  }
  if (next === '\n' || next === '\r' || 'tnrf\\'.includes(next)) return undefined;
  return [2, unpseudo(next)];
};

/**
 * aapt's escapes (`\'`, `\"`, `\@`, `\?`, `\uXXXX`) and XML's references: a translation
 * writes `'` as `\'`, which stands for the same character.
 */
const readAndroidEscape: EscapeReader = (text, at) => {
  const c = text.charCodeAt(at);
  if (c === 38 /* & */) return readHtmlReference(text, at);
  if (c !== 92 /* \ */ || at + 1 >= text.length) return undefined;
  const next = text[at + 1]!;
  if (next === 'u') {
    const hex = text.slice(at + 2, at + 6);
    return /^[0-9a-fA-F]{4}$/.test(hex) ? [6, unpseudo(String.fromCharCode(parseInt(hex, 16)))] : undefined;
  }
  return `'"@?`.includes(next) ? [2, next] : undefined;
};

/** Apple `.strings` escapes (CFPropertyList's old-style strings): `\UXXXX`, `\n`, `\t`, `\r`, and a backslash before any other character. */
const APPLE_SIMPLE: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r' };
const readAppleEscape: EscapeReader = (text, at) => {
  if (text.charCodeAt(at) !== 92 /* \ */ || at + 1 >= text.length) return undefined;
  const next = text[at + 1]!;
  if (next === 'U' || next === 'u') {
    const hex = /^[0-9a-fA-F]{1,4}/.exec(text.slice(at + 2, at + 6))?.[0];
    return hex ? [2 + hex.length, unpseudo(String.fromCharCode(parseInt(hex, 16)))] : undefined;
  }
  return [2, APPLE_SIMPLE[next] ?? next];
};

const ESCAPES: Readonly<Record<Format, EscapeReader | undefined>> = {
  plain: undefined,
  markdown: readHtmlReference,
  html: readHtmlReference,
  json: readJsonEscape,
  po: undefined,
  properties: readPropertiesEscape,
  yaml: readJsonEscape,
  xliff: readHtmlReference,
  android: readAndroidEscape,
  arb: readJsonEscape,
  strings: readAppleEscape,
  stringsdict: readHtmlReference,
  xcstrings: readJsonEscape,
};

export interface ByteDifference {
  /** Offset in the expected text (the source, with the target's lang/dir patches). */
  readonly at: number;
  readonly expected: string;
  readonly actual: string;
}

/**
 * Compares `expected` and `actual` (both without pseudo marks) byte for byte, letting an
 * escape on either side stand for the character it decodes to. Returns the first place
 * they differ otherwise, or undefined.
 */
export function firstByteDifference(format: Format, expected: string, actual: string): ByteDifference | undefined {
  const readEscape = ESCAPES[format];
  let i = 0;
  let j = 0;
  // Inside quotes the answer added around an unquoted `.strings` value (see addedQuote).
  let quoted = false;
  while (i < expected.length && j < actual.length) {
    if (format === 'strings' && actual[j] === '"' && expected[i] !== '"' && addedQuote(expected, i, quoted)) {
      quoted = !quoted;
      j++;
      continue;
    }
    if (readEscape) {
      const left = readEscape(expected, i);
      const right = readEscape(actual, j);
      if (left && right && left[1] === right[1]) {
        i += left[0];
        j += right[0];
        continue;
      }
      if (left && actual.startsWith(left[1], j) && !(right && expected.startsWith(right[1], i))) {
        i += left[0];
        j += left[1].length;
        continue;
      }
      if (right && expected.startsWith(right[1], i)) {
        i += right[1].length;
        j += right[0];
        continue;
      }
    }
    if (expected.charCodeAt(i) !== actual.charCodeAt(j)) break;
    i++;
    j++;
  }
  // An escape for a pseudo mark (a properties file's `\u202c`) may end the answer.
  for (let end = readEscape?.(actual, j); readEscape && i === expected.length && end && end[1] === ''; end = readEscape(actual, j)) j += end[0];
  if (i === expected.length && j === actual.length) return undefined;
  return { at: i, expected: expected.slice(Math.max(0, i - 30), i + 50), actual: actual.slice(Math.max(0, j - 30), j + 50) };
}

/**
 * An old-style word value (`Redo = Rehacer;`) can hold only ASCII letters, digits and
 * `_$+/:.-`: a translation with any other character is written in double quotes, which
 * encode the same value. A quote the answer has and the source lacks is allowed where such
 * a value starts (after `=`) and, once opened, where it ends (before `;`).
 */
function addedQuote(expected: string, at: number, quoted: boolean): boolean {
  if (quoted) return /^\s*;/.test(expected.slice(at, at + 64));
  return /=\s*$/.test(expected.slice(Math.max(0, at - 64), at)) && /^[A-Za-z0-9_$+/:.\-]/.test(expected[at] ?? '');
}

/** The judgement for one extracted document and target: undefined when byte-exact. */
export function byteExactProblem(doc: ExtractedDocument, target: RenderTarget): ByteDifference | undefined {
  const expected = unpseudo(identityRender(doc, target));
  const actual = unpseudo(pseudoRender(doc, target));
  return firstByteDifference(doc.format, expected, actual);
}
