import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getAdapter } from '../../src/formats/index.js';
import { pseudoRender } from './helpers.js';

const masked = (text: string) => getAdapter('plain').extract(text).segments[0]?.text;

describe('placeholders become atomic tokens', () => {
  const cases: [string, string][] = [
    ['Hello {name}!', 'Hello <x1/>!'],
    ['{n, number} items', '<x1/> items'],
    ['Due {d, date, short} ok', 'Due <x1/> ok'],
    ['Hi {{user}} and {{{raw}}}', 'Hi <x1/> and <x2/>'],
    ['Got %s and %d and %i and %f and %1$s', 'Got <x1/> and <x2/> and <x3/> and <x4/> and <x5/>'],
    ['Hello %{name} and ${value}', 'Hello <x1/> and <x2/>'],
    ['See $t(common.more) now', 'See <x1/> now'],
    ['Visit https://example.com/a?b=1. Now', 'Visit <x1/>. Now'],
    ['Write to someone@example.org today', 'Write to <x1/> today'],
    ['Literal <g1> and </g2> and <x3/> text', 'Literal <x1/> and <x2/> and <x3/> text'],
    ['Save 50% off today', 'Save 50% off today'],
    ['A {"json": 1} blob', 'A {"json": 1} blob'],
  ];
  for (const [input, expected] of cases) it(`masks ${JSON.stringify(input)}`, () => assert.equal(masked(input), expected));

  it('keeps an ICU plural skeleton as tokens with translatable branch text', () => {
    const input = 'You have {count, plural, =0 {no items} one {# item} other {# items}}.';
    assert.equal(masked(input), 'You have <x1/><g1>no items</g1><g2><x2/> item</g2><g3><x3/> items</g3><x4/>.');
    const out = pseudoRender(getAdapter('plain').extract(input));
    assert.equal(out, 'Ýöü ĥáṽé {count, plural, =0 {ñö íţéṁš} one {# íţéṁ} other {# íţéṁš}}.');
  });

  it('handles select with nested arguments and nested plurals', () => {
    const input = '{g, select, female {She has {n, plural, one {# cat} other {# cats}}} other {They left}}';
    const out = pseudoRender(getAdapter('plain').extract(input));
    assert.equal(out, '{g, select, female {Šĥé ĥáš {n, plural, one {# çáţ} other {# çáţš}}} other {Ţĥéý ļéḟţ}}');
  });
});
