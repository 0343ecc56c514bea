/**
 * JSON: every string VALUE that reads as prose is a segment; keys, numbers, booleans,
 * null, whitespace and non-prose strings (CONTRACT §4) are template. A translation is
 * spliced between the literal's original quotes with JSON string escaping.
 */
import { visit } from 'jsonc-parser';
import type { ParseError } from 'jsonc-parser';
import { ServiceError } from '../errors.js';
import { jsonStringEscape } from './escape.js';
import type { FormatAdapter } from './format.js';
import { maskInto } from './placeholders.js';
import { DocumentBuilder } from './template.js';

const NON_PROSE: readonly RegExp[] = [
  /^\s*$/,
  /^[+-]?(?:\d[\d,_ ]*)?(?:\.\d+)?(?:e[+-]?\d+)?%?$/i, // numbers
  /^v?\d+(?:\.\d+)+(?:[-+][\w.-]+)?$/i, // versions
  /^(?:true|false|null|undefined|nan)$/i,
  /^[a-z][a-z0-9+.-]*:\/\/\S*$/i, // URLs
  /^(?:mailto:)?[^\s@]+@[^\s@]+\.[^\s@]+$/, // e-mail
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, // UUID
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/, // ISO dates
  /^\d{1,2}:\d{2}(?::\d{2})?$/, // times
  /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i, // colours
  /^(?:[a-z]:)?[\\/]?(?:[\w.@~-]+[\\/])*[\w@~-]+(?:\.[\w-]+)*\.[a-z0-9]{1,8}$/i, // file names and paths
  /^(?:\.{0,2}\/|~\/)[^\s]*$/, // paths
  /^[A-Za-z0-9]+(?:[_.\-/][A-Za-z0-9]+)+$/, // snake_case, dotted.keys, kebab-case, a/b
  /^[a-z]+[A-Z][A-Za-z0-9]*$/, // camelCase identifiers
  /^[A-Z0-9]+(?:_[A-Z0-9]+)+$/, // CONSTANT_CASE
  /^[^\p{L}]*$/u, // no letters at all
];

/** True when a JSON string value is prose a translator should see. */
export function isProse(value: string): boolean {
  return !NON_PROSE.some((pattern) => pattern.test(value));
}

const jsonLiteral = (text: string): string => JSON.stringify(text).slice(1, -1);
const SURROGATE = /[\ud800-\udfff]/;

/** Adds the prose string values of `content` (a JSON document) to `out`. */
export function jsonSegments(out: DocumentBuilder, content = out.source, base = 0): void {
  const errors: ParseError[] = [];
  let rootKind: 'object' | 'array' | 'scalar' | undefined;
  visit(
    content,
    {
      onObjectBegin: () => {
        rootKind ??= 'object';
      },
      onArrayBegin: () => {
        rootKind ??= 'array';
      },
      onLiteralValue: (value: unknown, offset, length, _line, _col, pathSupplier) => {
        rootKind ??= 'scalar';
        if (typeof value !== 'string' || !isProse(value)) return;
        const start = base + offset + 1;
        out.begin(start, base + offset + length - 1, 'value', jsonStringEscape, pathSupplier().map(String).join('.') || '(root)');
        // Without escapes in the literal, a placeholder's bytes are its source range
        // (JSON.stringify would give the same bytes, unless it holds a surrogate).
        const raw = value.length === length - 2 && !SURROGATE.test(value);
        maskInto(out, value, raw ? start : jsonLiteral, { colonMarkers: true });
        out.commit();
      },
      onError: (error, offset) => {
        errors.push({ error, offset, length: 0 });
      },
    },
    { disallowComments: true, allowTrailingComma: false },
  );
  if (errors.length > 0 || rootKind === undefined) {
    const at = errors[0] ? ` at character ${errors[0].offset + 1}` : '';
    throw new ServiceError('invalid_request', `The content is not valid JSON${at}; send valid JSON or choose another format.`);
  }
}

export const jsonAdapter: FormatAdapter = {
  format: 'json',
  extract(content) {
    const out = new DocumentBuilder('json', content);
    jsonSegments(out);
    return out.document();
  },
};
