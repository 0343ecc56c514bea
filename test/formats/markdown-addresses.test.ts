/**
 * Issue 31, class 4 (docs/formats.md § Placeholders): a web address in angle brackets
 * without a scheme (`<www.example.org>`, `<docs.example.org/guide>`) is no autolink in
 * CommonMark, so it is text, but an address all the same: kept like a URL, on both
 * markdown reading paths (mdast for small documents, marked's blocks for large ones).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getAdapter } from '../../src/formats/index.js';
import { byteExactProblem } from './byte-exact.js';
import { LTR, pseudoRender, RTL } from './helpers.js';

const markdown = getAdapter('markdown');
const ADDRESSES = ['<www.example.org>', '<docs.example.org/guide/install.html>', '<mirror.example.net:8080/pub/>', '<example.org>', '<WWW.EXAMPLE.ORG>'];
const source = [
  '# Mirrors at <www.example.org>',
  '',
  'The project lives at <www.example.org>; the manual at <docs.example.org/guide/install.html>.',
  '',
  '- Mirror: <mirror.example.net:8080/pub/>',
  '- Home page <example.org>, also <WWW.EXAMPLE.ORG>.',
  '',
  '> Report bugs at <www.example.org>.',
  '',
  '| site | note |',
  '|---|---|',
  '| <www.example.org> | main site |',
  '',
  'A GFM literal www.example.org/docs and <https://example.org/x> are kept as before.',
  '',
].join('\n');
// Over the 4 KiB at which the adapter reads blocks with marked instead of mdast.
const large = `${source}\n${'Filler paragraph with some words in it.\n\n'.repeat(150)}`;

describe('addresses in angle brackets in markdown text', () => {
  for (const [name, content] of [['a small document (mdast)', source], ['a large document (marked)', large]] as const) {
    it(`are kept as they are in ${name}`, () => {
      const doc = markdown.extract(content);
      for (const segment of doc.segments) {
        for (const address of ADDRESSES) assert.ok(!segment.text.includes(address), `${address} is text in ${JSON.stringify(segment.text)}`);
      }
      const out = pseudoRender(doc, LTR);
      for (const address of [...ADDRESSES, 'www.example.org/docs', '<https://example.org/x>']) {
        assert.equal(out.split(address).length, content.split(address).length, `${address} in\n${out.slice(0, 800)}`);
      }
      assert.match(out, /Ţĥé ṗŕöĵéçţ ļíṽéš áţ <www\.example\.org>;/);
      for (const target of [LTR, RTL]) assert.equal(byteExactProblem(doc, target), undefined);
    });
  }

  it('leaves angle-bracketed words that are no address as they were', () => {
    const doc = markdown.extract('Press <Enter> or write <e.g.> and <1.5> here.\n');
    assert.deepEqual(
      doc.segments.map((s) => s.text),
      ['Press <x1/> or write <e.g.> and <1.5> here.'],
    );
  });
});
