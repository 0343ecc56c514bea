/**
 * JSON: every string VALUE that reads as prose is a segment; keys, numbers, booleans,
 * null, whitespace and non-prose strings (docs/contract.md §4) are template. A translation is
 * spliced between the literal's original quotes with JSON string escaping.
 */
import { createScanner } from 'jsonc-parser';
import { ServiceError } from '../errors.js';
import { jsonStringEscape } from './core/escape.js';
import type { FormatAdapter } from './format.js';
import { DEFAULT_DOCUMENT_LIMITS, tooComplex } from './core/limits.js';
import type { DocumentLimits } from './core/limits.js';
import { PlaceholderScanner, SOURCE_RUN } from './core/placeholders.js';
import type { TextRun } from './core/placeholders.js';
import { DocumentBuilder } from './core/document.js';
import { addKeyFamily, findKeyFamilies } from './json-plural-keys.js';
import { entryNote, isShortValue } from './entries/note.js';
import * as charCodes from './core/char-codes.js';
// Module-local constants, not imported bindings, for the inner loops (why: core/char-codes.ts).
const { ASCII_END, LOWER_A, LOWER_E, LOWER_T, LOWER_Z } = charCodes;

/** One comparator of a version range (npm's semver): `^7.0.0-beta.44`, `~1.2`, `>=2`, `1.x`, `*`. */
const comparator = (major: string) =>
  String.raw`(?:[~^]|[<>]=?|=)?\s*v?${major}(?:\.(?:\d+|[xX*])){0,2}(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?`;

/** String values that are never prose (docs/contract.md §4); isProse is true when none matches. */
export const NON_PROSE: readonly RegExp[] = [
  /^[A-Za-z0-9]+(?:[_.\-/][A-Za-z0-9]+)+$/, // snake_case, dotted.keys, kebab-case, a/b (but see PROSE_NAME)
  /^\s*$/,
  /^[+-]?(?:\d[\d,_ ]*)?(?:\.\d+)?(?:e[+-]?\d+)?%?$/i, // numbers
  /^v?\d+(?:\.\d+)+(?:[-+][\w.-]+)?$/i, // versions
  // version ranges: comparators joined by spaces, ` - ` and `||`, the first with a number (not a lone `x`)
  new RegExp(String.raw`^\s*${comparator(String.raw`\d+`)}(?:(?:\s+-\s+|\s*\|\|\s*|\s+)${comparator(String.raw`(?:\d+|[xX*])`)})*\s*$`),
  /^(?:npm|jsr|workspace|catalog|file|link|portal|patch|git|github|gitlab|bitbucket):\S*$/, // dependency specifiers
  /^(?:true|false|null|undefined)$/i, // (not `NaN`: a locale writes it its own way, see PROSE_NAME)
  /^[a-z][a-z0-9+.-]*:\/\/\S*$/i, // URLs
  /^(?:mailto:)?[^\s@]+@[^\s@]+\.[^\s@]+$/, // e-mail
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, // UUID
  /^[0-9a-f]{12,}$/i, // hex hashes (no word is twelve hex letters)
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/, // ISO dates
  /^\d{1,2}:\d{2}(?::\d{2})?$/, // times
  /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i, // colours
  /^(?:[a-z]:)?[\\/]?(?:[\w.@~-]+[\\/])*[\w@~-]+(?:\.[\w-]+)*\.[a-z0-9]{1,8}$/i, // file names and paths
  /^(?:\.{0,2}\/|~\/)[^\s]*$/, // paths
  // One word with a `/`, a `#` before a name, or a `:` before a name: paths and scoped names
  // (`lib/`, `.github/workflows`, `@types/node`), JSON pointers and anchors (`#/$defs/x`,
  // `#meta`), colon-joined ids (`ns:key`, `urn:uuid:…`, IPv6); not a label (`Note:`).
  /^[.@]?[\w.@~$-]*(?:\/|#\/?[\w$.~-]|:[\w.:@-])[\w.@~$/#:-]*$/,
  /^\.[\w.-]+$/, // dot files: `.npmrc`
  /^\$[\w$]+$/, // `$ref`-style keywords
  /^_[\w$]*$/, // `_private` identifiers
  /^--?[A-Za-z][\w-]*(?:=\S*)?$/, // command-line options: `--exclude`, `-v`
  /^[a-z]+[A-Z][A-Za-z0-9]*$/, // camelCase identifiers
  /^[A-Z0-9]+(?:_[A-Z0-9]+)+$/, // CONSTANT_CASE
  /^[^\p{L}]*$/u, // no letters at all
];

/**
 * Prose, though a NON_PROSE pattern matches (docs/formats.md § json): a capitalised
 * hyphenated name (`Antigua-et-Barbuda`, `Guinea-Bissau`) or word (`E-mail`, `T-shirt`),
 * single letters joined by `-` or `/` (the sort labels `A-Z` and `Z-A`, `N/A`, `Y/N`:
 * a target writes them with its own alphabet or words), and `NaN` (CLDR gives it a
 * spelling per locale: `Intl.NumberFormat('ar').format(NaN)` is `ليس رقمًا`).
 */
const PROSE_NAME = /^(?:[A-Z][a-z]+(?:-[A-Za-z]+)+|[A-Z]-[a-z]+|[A-Za-z](?:[-/][A-Za-z])+|NaN)$/;

/**
 * Capitalised words joined by `/` (`Yes/No`, `Read/Write`, `Show/hide`, `AM/PM`): a UI
 * label, prose though a path matches it, unless it is an IANA time zone (`Europe/Paris`,
 * `America/Argentina/Salta`, `US/Eastern`), whose first part names an area.
 */
const SLASHED_LABEL = /^[A-Z][A-Za-z]*(?:\/[A-Za-z]+)+$/;
const TIME_ZONE_AREAS = new Set([
  ...Intl.supportedValuesOf('timeZone').map((zone) => zone.slice(0, zone.indexOf('/'))),
  // (older names that tz data still links: `US/Eastern`, `Etc/GMT`)
  'US', 'Canada', 'Brazil', 'Chile', 'Mexico', 'Etc', 'SystemV',
]);
const isSlashedLabel = (value: string): boolean => SLASHED_LABEL.test(value) && !TIME_ZONE_AREAS.has(value.slice(0, value.indexOf('/')));

/** Prose though a NON_PROSE pattern matches it: PROSE_NAME or a slashed label. */
export const isProseException = (value: string): boolean => PROSE_NAME.test(value) || isSlashedLabel(value);

/**
 * A space and an ASCII letter other than `e E T Z` rule out every NON_PROSE pattern but
 * version ranges (`>=1.0.0-beta <2`, `1.x || 2.x`): only blank, numbers (`1 000`, with
 * `e`), ISO date-times (`T`, `Z`, one space), letterless values and ranges may hold a
 * space, and a range starts with white space, a digit or one of `^~<>=*vVxX`
 * (`mayStartRange`). Most sentences are decided by this alone.
 */
const SURE_LETTER = /[A-DF-SU-Ya-df-z]/;

/** By char code below 128: whether a version range may start with it (beyond ASCII, a space may). */
const RANGE_START = new Uint8Array(128);
for (const c of ' \t\n\v\f\r0123456789^~<>=*vVxX') RANGE_START[c.charCodeAt(0)] = 1;
const mayStartRange = (c: number): boolean => c >= ASCII_END || RANGE_START[c] === 1;

/** NON_PROSE as one alternation per set of flags (every pattern is anchored: same answers, fewer calls). */
const NON_PROSE_COMBINED = [...new Set(NON_PROSE.map((pattern) => pattern.flags))].map(
  (flags) => new RegExp(NON_PROSE.filter((pattern) => pattern.flags === flags).map((pattern) => `(?:${pattern.source})`).join('|'), flags),
);

/** SURE_LETTER.test(value), by char code for the usual first character (e, t and z in either case ask the regex). */
function hasSureLetter(value: string): boolean {
  const c = value.charCodeAt(0) | 32;
  if (c >= LOWER_A && c <= LOWER_Z && c !== LOWER_E && c !== LOWER_T && c !== LOWER_Z) return true;
  return SURE_LETTER.test(value);
}

/** True when a JSON string value is prose a translator should see: an exception (isProseException), or no NON_PROSE pattern matches. */
export function isProse(value: string): boolean {
  if (value.includes(' ') && !mayStartRange(value.charCodeAt(0)) && hasSureLetter(value)) return true;
  for (let i = 0; i < NON_PROSE_COMBINED.length; i++) if (NON_PROSE_COMBINED[i]!.test(value)) return isProseException(value);
  return true;
}

const jsonLiteral = (text: string): string => JSON.stringify(text).slice(1, -1);
const SURROGATE = /[\ud800-\udfff]/;

/**
 * The kinds of token jsonc-parser's scanner returns (its SyntaxKind: a const enum, which
 * cannot be imported one file at a time), by name.
 */
const JsonSyntax = {
  OpenBrace: 1,
  CloseBrace: 2,
  OpenBracket: 3,
  CloseBracket: 4,
  Comma: 5,
  Colon: 6,
  Null: 7,
  True: 8,
  False: 9,
  String: 10,
  Number: 11,
  LineComment: 12,
  BlockComment: 13,
  LineBreak: 14,
  Trivia: 15,
  Unknown: 16,
  EOF: 17,
} as const;

/** A value read in place whose placeholders may hold a surrogate half: those get JSON's escaped spelling. */
const SOURCE_WITH_SURROGATES: TextRun = { inSource: true, literal: jsonLiteral };
/** A value with escapes, masked in its decoded form: each placeholder's bytes are its JSON spelling. */
const DECODED_VALUE: TextRun = { inSource: false, literal: jsonLiteral };

/** Thrown at the first token jsonc-parser's `visit` would report an error for. */
function invalid(offset: number): never {
  throw new ServiceError('invalid_request', `The content is not valid JSON at character ${offset + 1}; send valid JSON or choose another format.`);
}

/**
 * Adds the prose string values of `out.source` (a JSON document) to `out`. A loop over
 * jsonc-parser's scanner with the grammar of its `visit` (comments and trailing commas
 * refused; the error offset is that of the first token `visit` reports). Segments carry
 * no key path (`ctx`): it was half of an extracted document's memory (decision 0007).
 * A short value (one or two words) gets its key's last two named parts as a note for the
 * model, as locale files do (`Pay` under `checkout.pay_button`; decision 0076).
 */
function jsonSegments(out: DocumentBuilder, limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS): void {
  const content = out.source;
  // In JSON string values `:name` markers are placeholders and tags are markup (docs/contract.md §4).
  const placeholders = new PlaceholderScanner({ colonMarkers: true, markup: true, blobs: true, limits });
  const maxDepth = limits.maxNestingDepth;
  // Without a surrogate anywhere (always, in a one-byte string) no placeholder needs its
  // escaped spelling; the test is one pass, and none at all for a one-byte string.
  const surrogates = SURROGATE.test(content);
  // i18next plural key families (json-plural-keys.ts): one segment each, met at the last member's value.
  const families = findKeyFamilies(content);
  const scanner = createScanner(content, false);
  const next = (): number => {
    for (;;) {
      const syntax = scanner.scan();
      // Every scan error is reported (an unterminated comment as the comment itself).
      if (scanner.getTokenError() !== 0) invalid(scanner.getTokenOffset());
      if (syntax === JsonSyntax.Trivia || syntax === JsonSyntax.LineBreak) continue;
      if (syntax === JsonSyntax.LineComment || syntax === JsonSyntax.BlockComment || syntax === JsonSyntax.Unknown) invalid(scanner.getTokenOffset());
      return syntax;
    }
  };
  // Open containers, 1-based: whether an array, and whether a comma is due.
  const isArray: boolean[] = [false];
  const needsComma: boolean[] = [false];
  // The key of the value being read at each depth ('' in an array), for short values' notes.
  const keys: string[] = [''];
  // The key notes given, by segment index, and how often each was given: a key that
  // names many values (`stringUnit.value` in a String Catalog) tells the model nothing.
  let noted: Map<number, string> | undefined;
  const noteCounts = new Map<string, number>();
  let depth = 0;
  let syntax = next();
  for (;;) {
    // A value is expected at `syntax` (the root, or after `key :` / in an array).
    switch (syntax) {
      case JsonSyntax.OpenBrace:
      case JsonSyntax.OpenBracket: {
        if (++depth > maxDepth) throw tooComplex('the nesting of JSON arrays and objects', maxDepth);
        isArray[depth] = syntax === JsonSyntax.OpenBracket;
        needsComma[depth] = false;
        keys[depth] = '';
        syntax = next();
        break;
      }
      case JsonSyntax.String: {
        const value = scanner.getTokenValue();
        const family = families?.get(scanner.getTokenOffset());
        if (family !== undefined) {
          if (family !== null) {
            addKeyFamily(out, family, jsonStringEscape, (member) => {
              const start = member.valueOffset + 1;
              if (member.value.length === member.valueLength - 2) {
                placeholders.mask(out, content, start, start + member.value.length, surrogates ? SOURCE_WITH_SURROGATES : SOURCE_RUN, member.value);
              } else placeholders.mask(out, member.value, 0, member.value.length, DECODED_VALUE);
            });
          }
        } else if (isProse(value)) {
          const offset = scanner.getTokenOffset();
          const length = scanner.getTokenLength();
          const start = offset + 1;
          const end = offset + length - 1;
          out.begin(start, end, 'value', jsonStringEscape);
          // Without escapes in the literal (the value is as long as the text between the
          // quotes), the value is its source range, read in place, and a placeholder's
          // bytes are its source range: JSON.stringify would give the same bytes unless
          // the placeholder holds a surrogate.
          if (value.length === length - 2) placeholders.mask(out, content, start, end, surrogates ? SOURCE_WITH_SURROGATES : SOURCE_RUN, value);
          else placeholders.mask(out, value, 0, value.length, DECODED_VALUE);
          const note = depth > 0 && isShortValue(value) ? entryNote(keyPath(keys, depth), [], value) : undefined;
          if (note !== undefined) out.note(note);
          if (out.commit() && note !== undefined) {
            (noted ??= new Map()).set(out.segmentCount - 1, note);
            noteCounts.set(note, (noteCounts.get(note) ?? 0) + 1);
          }
        }
        syntax = next();
        break;
      }
      case JsonSyntax.Number: // (visit's NaN check never fires: the scanner has already flagged any malformed number)
      case JsonSyntax.Null:
      case JsonSyntax.True:
      case JsonSyntax.False:
        syntax = next();
        break;
      default:
        invalid(scanner.getTokenOffset());
    }
    // After a value, or right after an opening brace/bracket: close containers, find the next value.
    for (;;) {
      if (depth === 0) {
        if (syntax !== JsonSyntax.EOF) invalid(scanner.getTokenOffset());
        if (noted !== undefined) for (const [index, note] of noted) if (noteCounts.get(note)! > MAX_NOTE_REPEATS) out.dropNote(index);
        return;
      }
      const array = isArray[depth]!;
      if (syntax === (array ? JsonSyntax.CloseBracket : JsonSyntax.CloseBrace)) {
        depth--;
        if (depth > 0) needsComma[depth] = true;
        syntax = next();
        continue;
      }
      if (syntax === JsonSyntax.EOF) invalid(scanner.getTokenOffset());
      if (syntax === JsonSyntax.Comma) {
        if (!needsComma[depth]) invalid(scanner.getTokenOffset());
        syntax = next();
      } else if (needsComma[depth]) invalid(scanner.getTokenOffset());
      needsComma[depth] = true;
      if (!array) {
        if (syntax !== JsonSyntax.String) invalid(scanner.getTokenOffset());
        keys[depth] = scanner.getTokenValue();
        syntax = next();
        if (syntax !== JsonSyntax.Colon) invalid(scanner.getTokenOffset());
        syntax = next();
      }
      break;
    }
  }
}

/** A key note given to more values than this in one document is taken back from all of them. */
const MAX_NOTE_REPEATS = 3;

/** The last two named keys above a value at `depth` (array positions skipped), dot-joined. */
function keyPath(keys: readonly string[], depth: number): string | undefined {
  let last: string | undefined;
  for (let d = depth; d > 0; d--) {
    const key = keys[d]!;
    if (key === '') continue;
    if (last !== undefined) return `${key}.${last}`;
    last = key;
  }
  return last;
}

export const jsonAdapter: FormatAdapter = {
  format: 'json',
  extract(content, limits) {
    const out = new DocumentBuilder('json', content);
    jsonSegments(out, limits);
    return out.document();
  },
};
