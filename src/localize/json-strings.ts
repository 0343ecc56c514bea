/**
 * A JSON locale file as `sync` sees it: its string values, each named by its JSON Pointer
 * (RFC 6901: `/nav/home`, `/items/0`), with where each one's literal sits in the text.
 * A target file is the source's text with every string literal replaced by the target's
 * string, so indentation, key order, line endings, the final newline, numbers and
 * everything else that is not a string value come out exactly as the source has them.
 */
import { visit } from 'jsonc-parser';

export interface StringLiteral {
  readonly pointer: string;
  readonly value: string;
  /** The literal's place in the text, quotes included. */
  readonly offset: number;
  readonly length: number;
}

const escapeToken = (segment: string | number): string => String(segment).replace(/~/g, '~0').replace(/\//g, '~1');

/** The string values of a JSON text (already known to parse), in document order. */
export function stringLiterals(text: string): StringLiteral[] {
  const found: StringLiteral[] = [];
  visit(text, {
    onLiteralValue(value: unknown, offset: number, length: number, _line: number, _column: number, path: () => (string | number)[]) {
      if (typeof value !== 'string') return;
      found.push({ pointer: path().map((segment) => `/${escapeToken(segment)}`).join(''), value, offset, length });
    },
  });
  return found;
}

export function stringValues(text: string): Map<string, string> {
  return new Map(stringLiterals(text).map((literal) => [literal.pointer, literal.value]));
}

/** The text with each string value replaced by `replace(pointer)`; `literals` when the caller already has them. */
export function withStrings(text: string, replace: (pointer: string) => string, literals: readonly StringLiteral[] = stringLiterals(text)): string {
  let out = '';
  let at = 0;
  for (const literal of literals) {
    out += text.slice(at, literal.offset) + JSON.stringify(replace(literal.pointer));
    at = literal.offset + literal.length;
  }
  return out + text.slice(at);
}
