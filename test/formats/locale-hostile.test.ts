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
