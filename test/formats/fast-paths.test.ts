/**
 * The fast paths of plain, json and the placeholder scan (no regex where a character
 * decides, sticky tests at candidate characters, json read with jsonc-parser's scanner
 * and isProse's shortcut) must give what the straightforward versions gave:
 *  - fast-paths.golden.json: segments and a translated render of tricky inputs, as
 *    produced by the implementation before the fast paths (commit 95b058c);
 *  - isProse against its definition (no NON_PROSE pattern matches);
 *  - json segments and error offsets against jsonc-parser's `visit`;
 *  - a placeholder scan of a range in place against a scan of its slice.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { visit } from 'jsonc-parser';
import type { Format } from '../../src/formats/format.js';
import { ServiceError } from '../../src/errors.js';
import { getAdapter } from '../../src/formats/index.js';
import { DEFAULT_DOCUMENT_LIMITS } from '../../src/formats/format.js';
import { isProse, isProseException, NON_PROSE } from '../../src/formats/json.js';
import { SpanList } from '../../src/formats/core/placeholders.js';
import { findPlaceholders, scanRange } from '../helpers/placeholders.js';
import { propertyRuns } from '../helpers/property-runs.js';

const RUNS = propertyRuns(300);
const TOKEN = /(<\/?g\d+>|<x\d+\/>)/;
/** The translation used for the golden renders: text runs upper-cased, characters that need escaping appended. */
const translate = (text: string) => text.split(TOKEN).map((piece, i) => (i % 2 ? piece : piece.toUpperCase())).join('') + ' ü"\\';

describe('fast paths give the segments and renders of the straightforward implementation', () => {
  const golden = JSON.parse(readFileSync(join(import.meta.dirname, 'fast-paths.golden.json'), 'utf8')) as [Format, string, unknown, string?][];
  for (const [format, input, segments, render] of golden) {
    it(`${format} ${JSON.stringify(input).slice(0, 70)}`, () => {
      let doc;
      try {
        doc = getAdapter(format).extract(input);
      } catch (error) {
        assert.equal(`ERR ${(error as Error).message}`, segments);
        return;
      }
      // The golden file predates the plural messages a segment now names (issue 32) and
      // the notes of short JSON values (issue 33); the fast paths must give the same
      // text, kind and line rule.
      assert.deepEqual(
        doc.segments.map(({ plurals: _plurals, note: _note, ...segment }) => segment),
        segments,
      );
      let out: string;
      try {
        out = doc.render(new Map(doc.segments.map((s) => [s.id, translate(s.text)])), { code: 'fr', rtl: false });
        // Translations aligned by index (as the service passes them) render the same.
        assert.equal(doc.render(doc.segments.map((s) => translate(s.text)), { code: 'fr', rtl: false }), out);
      } catch (error) {
        out = `ERR ${(error as Error).message}`;
      }
      assert.equal(out, render);
    });
  }
});

describe('isProse', () => {
  const chars = fc.constantFrom(' ', ' ', 'e', 'E', 't', 'T', 'z', 'Z', 'a', 'A', 'v', 'x', '0', '1', '9', '-', '+', '.', ',', '_', '%', ':', '/', '\\', '@', '#', '~', 'f', '\t', '\u00a0', 'é', '日', 'true', 'mailto:', 'http://', 'www', '2024-01-02', 'T10:00', '^', '~', '>=', '<', '||', ' - ', '-beta', 'Ab', 'npm:');
  // Strings each pattern matches (fast-check cannot generate for /i: the pattern without it), then mutated.
  const matching = fc.oneof(...NON_PROSE.map((pattern) => fc.stringMatching(new RegExp(pattern.source, pattern.flags.replace('i', '')), { size: 'small' })));
  const mutated = fc.tuple(matching, fc.nat(), chars, fc.nat(2)).map(([text, at, c, remove]) => {
    const i = at % (text.length + 1);
    return text.slice(0, i) + c + text.slice(i + remove);
  });
  const value = fc.oneof(matching, mutated, fc.array(chars, { maxLength: 8 }).map((p) => p.join('')));
  it('is true exactly when no NON_PROSE pattern matches, or for a prose exception (a capitalised hyphenated name, a label)', () => {
    fc.assert(
      fc.property(value, (text) => isProse(text) === (isProseException(text) || !NON_PROSE.some((pattern) => pattern.test(text)))),
      { ...RUNS, numRuns: RUNS.numRuns * 20 },
    );
  });
});

describe('json read with the scanner', () => {
  const word = fc.constantFrom('Hello there', 'Save', 'x_y', '42', 'Hi {name}', 'a.b', '', ' ', 'true', 'Go to https://x.y now');
  const key = fc.constantFrom('', 'a', 'b.c', '0', 'key', 'é');
  const json: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
    v: fc.oneof({ depthSize: 'small' }, word, fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie('v'), { maxLength: 4 }), fc.dictionary(key, tie('v'), { maxKeys: 4 })),
  })).v;

  /** Every prose string value, in document order, by jsonc-parser's visit. */
  function visitProse(source: string): string[] {
    const values: string[] = [];
    visit(source, {
      onLiteralValue: (value: unknown) => {
        if (typeof value === 'string' && isProse(value)) values.push(value);
      },
    });
    return values;
  }

  /** The offset of the first error visit reports (comments and trailing commas refused), or -1. */
  function visitError(source: string): number {
    let first = -1;
    visit(source, { onError: (_error, offset) => void (first === -1 && (first = offset)) }, { disallowComments: true, allowTrailingComma: false });
    return first;
  }

  it('gives one segment per prose string value visit reports, in order', () => {
    fc.assert(
      fc.property(json, fc.constantFrom(0, 2, '\t'), (value, space) => {
        const source = JSON.stringify(value, null, space);
        const segments = getAdapter('json').extract(source).segments;
        const values = visitProse(source);
        assert.equal(segments.length, values.length);
        // Without a placeholder a value is its segment's text (with one, the text holds tokens).
        values.forEach((text, i) => !/[{}%$<:@]/.test(text) && assert.equal(segments[i]!.text, text));
      }),
      RUNS,
    );
  });

  it('refuses what visit refuses, at the offset of visit’s first error', () => {
    const broken = fc.tuple(json, fc.nat(), fc.constantFrom('', ',', '}', ']', '"', '/', '//c\n', '/*', '-', '1.', 'tru', ':', '\t', 'x', '1e', '[', '{', '\u00a0'), fc.nat(3));
    fc.assert(
      fc.property(broken, ([value, at, insert, remove]) => {
        const valid = JSON.stringify(value);
        const i = at % (valid.length + 1);
        const source = valid.slice(0, i) + insert + valid.slice(i + remove);
        const offset = visitError(source);
        try {
          getAdapter('json').extract(source);
          assert.equal(offset, -1, `accepted ${JSON.stringify(source)}`);
        } catch (error) {
          assert.match((error as Error).message, new RegExp(`at character ${offset + 1};`), JSON.stringify(source));
        }
      }),
      RUNS,
    );
  });

  it('reads nesting up to the limit without recursion, and refuses deeper nesting as too complex', () => {
    const nested = (depth: number) => `${'['.repeat(depth)}"Deep value"${']'.repeat(depth)}`;
    const limits = { ...DEFAULT_DOCUMENT_LIMITS, maxNestingDepth: 50_000 };
    assert.deepEqual(getAdapter('json').extract(nested(50_000), limits).segments.map((s) => s.text), ['Deep value']);
    assert.throws(() => getAdapter('json').extract(nested(50_001), limits), (e: unknown) => e instanceof ServiceError && e.code === 'document_too_complex');
  });
});

describe('scanRange reads a range in place', () => {
  // Pieces that make placeholders, near-placeholders and the neighbours lookarounds test.
  const piece = fc.constantFrom(
    'Hi ', 'x', '_', '.', '-', ':', '/', '\\', '%', '@', '"', ' ', '\n', '{', '}', '{{', '}}', '#', 'www.', 'w', '<', '>',
    '{name}', '{n, plural, one {# item} other {# items}}', '{s, select, a {A {x}} other {B}}', '{n, number}', '{ n , plural , offset:1 =0 {none} other {#}}',
    '{{user}}', '{{{raw}}}', '%s', '%1$s', '%(name)s', '%{x}', '${y}', '$t(k.k)', ':name', 'https://a.b/c.', 'www.x.org', 'me@x.org', 'a.b@c.de',
    '<g1>', '</g2>', '<x3/>', '\ud83d\ude00', '\ud800', 'é',
  );
  const text = fc.array(piece, { maxLength: 14 }).map((pieces) => pieces.join(''));
  it('finds what a scan of the slice finds, or declines', () => {
    const list = new SpanList();
    let decided = 0;
    fc.assert(
      fc.property(text, text, text, fc.boolean(), (before, range, after, colonMarkers) => {
        const source = before + range + after;
        const from = before.length;
        const to = from + range.length;
        const sliced = findPlaceholders(range, { colonMarkers }).flatMap((s) => [s.start + from, s.end + from, s.type]);
        if (!scanRange(source, from, to, { colonMarkers }, list)) return;
        decided++;
        const inPlace: (number | string)[] = [];
        for (let k = 0; k < list.length; k += 4) inPlace.push(list.data[k]!, list.data[k + 1]!, ['atom', 'open', 'close'][list.data[k + 2]!]!);
        assert.deepEqual(inPlace, sliced);
      }),
      { ...RUNS, numRuns: RUNS.numRuns * 10 },
    );
    // Most ranges are read in place: a property that always declined would test nothing.
    assert.ok(decided > RUNS.numRuns, `decided ${decided}`);
  });
});

describe('the ICU reader takes its shortcuts only where they change nothing', () => {
  // ICU messages of every shape the reader knows, nested, some of them broken. `!` stands
  // for a character that means nothing anywhere; `<` means nothing here either, but it is
  // a candidate character (`nextCandidate`), so a body holding it is one a scan reads.
  const ws = fc.constantFrom('', '', ' ', '  ', '\t', '\n');
  const message: fc.Arbitrary<string> = fc.letrec<{ message: string; body: string }>((tie) => ({
    body: fc
      .array(fc.oneof({ depthSize: 'small' }, fc.constantFrom('!', 'word', ' ', '#', '##', '{name}', 'é', 'w', 'ww', '}', '{'), tie('message')), { maxLength: 5 })
      .map((parts) => parts.join('')),
    message: fc.oneof(
      fc.tuple(ws, fc.constantFrom('n', 'count', 'x_1', 'a.b', '$v', 'é', ''), ws).map(([a, name, b]) => `{${a}${name}${b}}`),
      fc
        .tuple(
          fc.tuple(ws, fc.constantFrom('n', 'count', 'é'), ws, ws, fc.constantFrom('plural', 'select', 'selectordinal', 'number', 'date', 'other'), ws, ws),
          fc.constantFrom('', '', 'offset:1 ', 'offset: 2', 'offset:'),
          fc.array(fc.tuple(fc.constantFrom('one', 'other', '=0', '=12', 'few', 'male', '='), ws, tie('body'), ws), { maxLength: 4 }),
          fc.nat(60),
        )
        .map(([[a, name, b, c, type, d, e], offset, branches, cut]) => {
          const text = `{${a}${name}${b},${c}${type}${d},${e}${offset}${branches.map(([sel, f, body, g]) => `${sel}${f}{${body}}${g}`).join('')}}`;
          // Sometimes cut short, to end mid-message.
          return cut < 50 ? text : text.slice(0, text.length - (cut - 49));
        }),
    ),
  })).message;
  const text = fc.tuple(fc.constantFrom('', 'You have ', 'x', '%s '), message, fc.constantFrom('', '!', ' {other}', ' x'));
  const spans = (source: string, colonMarkers: boolean) => findPlaceholders(source, { colonMarkers }).map((s) => [s.start, s.end, s.type]);

  it('reads ASCII spaces as the regex reads U+00A0, and a plain body as a scan reads it', () => {
    let pairs = 0;
    fc.assert(
      fc.property(text, fc.boolean(), ([before, icu, after], colonMarkers) => {
        const source = before + icu + after;
        const expected = spans(source, colonMarkers);
        pairs += expected.filter(([, , type]) => type === 'open').length;
        // Spaces beyond ASCII are read by a regex rather than the ASCII table.
        assert.deepEqual(spans(source.replaceAll(' ', '\u00a0'), colonMarkers), expected);
        // A body with a `<` is scanned, rather than read once for its `#`s as it is matched.
        assert.deepEqual(spans(source.replaceAll('!', '<'), colonMarkers), expected);
      }),
      { ...RUNS, numRuns: RUNS.numRuns * 10 },
    );
    // Most messages are read as messages: a property without pairs would test little.
    assert.ok(pairs > RUNS.numRuns, `pairs ${pairs}`);
  });
});
