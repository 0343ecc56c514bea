/**
 * Java properties (docs/formats.md "properties"): every answer is read by Java's own
 * Properties.load into the same keys with the values translated, and is byte-exact
 * under pseudo outside the values (an escape decoded inside a value is allowed).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServiceError } from '../../src/errors.js';
import { getAdapter } from '../../src/formats/index.js';
import { javaLoad } from '../helpers/java-properties.js';
import { byteExactProblem } from './byte-exact.js';
import { pseudoRender, unpseudo } from './helpers.js';

const BUNDLE = [
  '# Checkout screen',
  '! Shown on the main button',
  'checkout.pay_button = Pay',
  'checkout.total:Total: {0,number,currency}',
  'cart.items {0,choice,0#no items|1#one item|1<{0} items}',
  "error.file=Can''t open {0}: the file is locked.",
  'help.long=This text runs over \\',
  '    two lines, with a tab\\there.',
  'key\\ with\\ spaces=Value with a trailing escape\\\\',
  'empty=',
  'path=C:\\\\Apps\\\\shop.exe',
  'url=https://example.com/help',
  'leading=\\  Indented text',
  'unicode=Caf\\u00e9 au lait',
  '',
].join('\n');

const RU = { code: 'ru', rtl: false };
const AR = { code: 'ar', rtl: true };

describe('properties', () => {
  const doc = getAdapter('properties').extract(BUNDLE);

  it('translates values, never keys or comments', () => {
    const texts = doc.segments.map((s) => s.text).join(' | ');
    assert.match(texts, /Pay/);
    assert.doesNotMatch(texts, /checkout|Checkout screen|main button|shop.exe/);
  });

  it('answers files Java reads into the same keys, each value the translation of its source', () => {
    const answers = [pseudoRender(doc, RU), pseudoRender(doc, AR)];
    const [source, ...translated] = javaLoad([BUNDLE, ...answers]);
    for (const answer of translated) {
      assert.deepEqual(Object.keys(answer!), Object.keys(source!));
      for (const key of Object.keys(source!)) assert.equal(unpseudo(answer![key]!), unpseudo(source![key]!), key);
    }
    assert.equal(translated[0]!['checkout.pay_button'], 'Ṗáý');
  });

  it('is byte-exact outside the values, continuation and escapes included', () => {
    for (const target of [RU, AR]) assert.equal(byteExactProblem(doc, target), undefined);
    assert.match(pseudoRender(doc, RU), /^help\.long=\\u0162[^\n]* \\\n    \\u0163[^\n]*\\t\\u0125/m);
  });

  it('writes a tab raw where the value had raw tabs, escaped where it had none (Xerces ends values with a raw tab)', () => {
    const raw = getAdapter('properties').extract('a = Hello, world. \t\r\nb = Hello\\tworld\n');
    for (const target of [RU, AR]) assert.equal(byteExactProblem(raw, target), undefined);
    const [read] = javaLoad([pseudoRender(raw, RU)]);
    assert.equal(read!.a, 'Ĥéļļö, ŵöŕļḋ. \t');
    assert.equal(read!.b, 'Ĥéļļö\tŵöŕļḋ');
  });

  it('writes characters outside ASCII as \\uXXXX when the file has none raw, and raw when it has', () => {
    assert.match(pseudoRender(doc, RU), /^checkout\.pay_button = \\u1e56\\u00e1\\u00fd$/m);
    const raw = getAdapter('properties').extract('# Café\ngreeting=Hello\n');
    assert.equal(pseudoRender(raw, RU), '# Café\ngreeting=Ĥéļļö\n');
  });

  it('keeps MessageFormat arguments and doubled quotes', () => {
    const answer = pseudoRender(doc, RU);
    assert.ok(answer.includes('{0,number,currency}'));
    assert.ok(answer.includes('{0,choice,0#no items|1#one item|1<{0} items}'));
    assert.ok(answer.includes("''"));
  });

  it('refuses a malformed \\u escape with invalid_request naming the line', () => {
    assert.throws(
      () => getAdapter('properties').extract('a=b\n\nbad=\\u12G4\n'),
      (error: unknown) => error instanceof ServiceError && error.code === 'invalid_request' && /line 3/.test(error.message),
    );
  });
});
