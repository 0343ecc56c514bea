/**
 * Hostile shapes of the locale formats (docs/contract.md §6, the document limits): deep
 * nesting is refused with document_too_complex before a parser recurses into it, and a
 * 2 MiB single entry, a long run of continuations or many entries are read in one
 * linear pass. Time bounds are generous (the machine is shared); what they catch is a
 * stall, a stack overflow or a quadratic reader.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServiceError } from '../../src/errors.js';
import type { Format } from '../../src/formats/format.js';
import { getAdapter } from '../../src/formats/index.js';
import { LTR, identityRender, pseudoRender } from './helpers.js';

const TWO_MIB = 2 * 1024 * 1024;
const words = (bytes: number): string => 'word '.repeat(Math.floor(bytes / 5));

function timed(format: Format, content: string): { ms: number; segments: number } {
  const started = performance.now();
  const doc = getAdapter(format).extract(content);
  doc.render(doc.segments.map((s) => s.text), { code: 'ru', rtl: false });
  return { ms: performance.now() - started, segments: doc.segments.length };
}

const tooComplex = (error: unknown): boolean => error instanceof ServiceError && error.code === 'document_too_complex';

describe('locale formats on hostile input', () => {
  it('refuses YAML nested past the limit (flow and block) at once', () => {
    for (const content of ['a: ' + '['.repeat(100_000), Array.from({ length: 2000 }, (_, i) => ' '.repeat(i) + 'k:').join('\n') + ' v\n']) {
      const started = performance.now();
      assert.throws(() => getAdapter('yaml').extract(content), tooComplex);
      assert.ok(performance.now() - started < 3000, `${performance.now() - started} ms`);
    }
  });

  it('refuses XLIFF nested past the limit', () => {
    assert.throws(() => getAdapter('xliff').extract('<xliff version="1.2">' + '<g>'.repeat(100_000)), tooComplex);
  });

  for (const [format, content] of [
    ['po', `msgid "${words(TWO_MIB - 20)}"\nmsgstr ""\n`],
    ['properties', `k=${words(TWO_MIB - 4)}\n`],
    ['properties', `k=${'word \\\n'.repeat(TWO_MIB / 8)}\n`],
    ['yaml', `k: ${words(TWO_MIB - 4)}\n`],
    ['xliff', `<xliff version="1.2"><file><body><trans-unit id="a"><source>${words(TWO_MIB - 100)}</source></trans-unit></body></file></xliff>`],
    ['xliff', '<xliff version="1.2"><file><body>' + '<trans-unit id="a"><source>Hello</source></trans-unit>'.repeat(30_000) + '</body></file></xliff>'],
    ['po', 'msgid "Hello"\nmsgstr ""\n\n'.repeat(60_000)],
  ] as const) {
    it(`reads ${format} of ${content.length} characters (${content.slice(0, 24).replace(/\n/g, '⏎')}…) in bounded time`, () => {
      const { ms, segments } = timed(format, content);
      assert.ok(segments >= 1);
      assert.ok(ms < 20_000, `${ms} ms`);
    });
  }
});

// The entries builder joins values with NUL, so a value holding one is not sent: its
// translation is its own text (an earlier YAML render emptied it: `k: "a\0b"` became `k: ""`).
describe('a value holding a NUL', () => {
  // [format, the value's entry, an entry after it]: the first comes back byte for byte, the second is translated.
  for (const [format, kept, after] of [
    ['yaml', 'k: "Some a\\0b words here"\n', 'j: plain words here\n'],
    ['yaml', 'k: |\n  Some a\0b words here\n', 'j: plain words here\n'],
    ['yaml', 'k: "Some a\\0b words\n  over two lines"\n', 'j: plain words here\n'],
    ['properties', 'k=Some a\\u0000b words here\n', 'j=plain words here\n'],
    ['strings', '"k" = "Some a\\0b words here";\n', '"j" = "plain words here";\n'],
    ['arb', '{"k": "Some a\\u0000b words here", ', '"j": "plain words here"}'],
  ] as const) {
    it(`comes back as it was in ${format} (${JSON.stringify(kept.slice(0, 26))}…), and the value after it is translated`, () => {
      const doc = getAdapter(format).extract(kept + after);
      assert.equal(identityRender(doc), kept + after);
      const pseudo = pseudoRender(doc);
      assert.ok(pseudo.startsWith(kept), pseudo);
      assert.notEqual(pseudo.slice(kept.length), after);
    });
  }

  it('is the added target\'s value in xcstrings, not an empty string', () => {
    const content = JSON.stringify({ sourceLanguage: 'en', strings: { k: { localizations: { en: { stringUnit: { state: 'translated', value: 'Some a\u0000b words' } } } } }, version: '1.0' });
    const rendered = JSON.parse(pseudoRender(getAdapter('xcstrings').extract(content), LTR));
    assert.equal(rendered.strings.k.localizations[LTR.code].stringUnit.value, 'Some a\u0000b words');
  });
});
