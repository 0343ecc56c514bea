/**
 * The pseudo engine transforms a long segment in slices with a turn between them
 * (docs/event-loop.md, rule 5). A slice must never cut a mark (`<g12>`, `</g3>`, `<x7/>`),
 * and a `<` that is not a mark must not stretch a slice: a 1.8 MB plain text opening with
 * `<!--` (issue 37's "huge HTML comment" shape) was transformed in one slice, holding the
 * event loop for the whole of it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pseudoLocalizeText, pseudoSliceEnd } from '../../src/engines/pseudo.js';

const SLICE = 64 * 1024;

function slicesOf(text: string, sliceChars?: number): string[] {
  const slices: string[] = [];
  for (let start = 0; start < text.length; ) {
    const end = pseudoSliceEnd(text, start, sliceChars);
    assert.ok(end > start, `a slice from ${start} is empty`);
    slices.push(text.slice(start, end));
    start = end;
  }
  return slices;
}

describe('pseudo: slices of a long segment', () => {
  test('a text opening with a literal < (a huge comment) is cut every 64 KiB, not taken whole', () => {
    const parts: string[] = [];
    for (let i = 0, size = 0; size < 1_800_000; i++) {
      parts.push(`note ${i} `);
      size += parts.at(-1)!.length;
    }
    const text = `<!-- ${parts.join('')} -->`;
    const slices = slicesOf(text);
    assert.equal(slices.length, Math.ceil(text.length / SLICE));
    assert.ok(Math.max(...slices.map((slice) => slice.length)) <= SLICE);
    assert.equal(slices.map(pseudoLocalizeText).join(''), pseudoLocalizeText(text));
  });

  test('no slice cuts a mark, and the slices transform to the whole text transformed', () => {
    // Marks and literal `<` (comparisons, a stray `<g`, `<x1`) at every offset against small slices.
    const pieces = ['<g1>', '</g1>', '<x12/>', '<g345>', '</g345>', 'a < b', '<gx>', '<x1', '<', 'Hello ', 'world', ' <3 '];
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    for (let round = 0; round < 200; round++) {
      const text = Array.from({ length: 40 }, () => pieces[next() % pieces.length]).join('');
      const sliceChars = 1 + (next() % 12);
      const slices = slicesOf(text, sliceChars);
      assert.equal(slices.join(''), text);
      const marks = (slice: string) => slice.match(/<\/?g\d+>|<x\d+\/>/g) ?? [];
      assert.deepEqual(slices.flatMap(marks), marks(text), `a mark was cut in ${JSON.stringify(text)} at ${sliceChars}`);
      assert.equal(slices.map(pseudoLocalizeText).join(''), pseudoLocalizeText(text));
      // A slice is longer than asked only to hold a mark whole.
      for (const slice of slices) assert.ok(slice.length <= sliceChars || marks(slice).length > 0, `slice ${JSON.stringify(slice)} > ${sliceChars}`);
    }
  });
});
