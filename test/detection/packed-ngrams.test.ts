/**
 * The table eld reads as `ngrams[bytes]` (detection/packed-ngrams.ts): every n-gram added
 * is found with its score set, nothing else is, and the edges of the packing (a key of
 * six bytes, byte 0 and 255, a key that does not fit in a number, more sets than the
 * cache of made arrays holds) lose nothing. The
 * whole-table check against eld's own answers is compact-table.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PackedNgramsBuilder, packedNgramTable } from '../../src/detection/packed-ngrams.js';

describe('PackedNgramsBuilder', () => {
  it('finds every n-gram it was given, with its own score set, among thousands', () => {
    const builder = new PackedNgramsBuilder();
    const sets = [[, 1], [, , 2], [, 3, 4]] as const;
    const added = new Map<string, (typeof sets)[number]>();
    // Byte strings as eld makes them: a space, up to four bytes, a space.
    for (let i = 0; i < 5_000; i++) {
      const bytes = String.fromCharCode((i * 7) % 256, (i * 13) % 256, i % 97);
      const ngram = i % 2 === 0 ? ` ${bytes}` : `${bytes} `;
      const set = sets[i % sets.length]!;
      added.set(ngram, set);
      builder.add(ngram, set);
    }
    const table = packedNgramTable(builder.parts());
    for (const [ngram, set] of added) assert.deepEqual(table[ngram], set, JSON.stringify(ngram));
    assert.equal(table[' zzz'], undefined);
    assert.equal(table[''], undefined);
  });

  it('tells keys apart that differ only in length or in a zero byte, and keeps keys that do not pack', () => {
    const builder = new PackedNgramsBuilder();
    const keys = ['\u0000', '\u0000\u0000', 'a', '\u0000a', 'a\u0000', ' \u00ff\u00ff\u00ff\u00ff ', 'seven b', 'ñ', 'Ā'];
    keys.forEach((key, i) => builder.add(key, [i]));
    const table = packedNgramTable(builder.parts());
    keys.forEach((key, i) => assert.deepEqual(table[key], [i], JSON.stringify(key)));
    assert.equal(table['seven c'], undefined);
    assert.equal(table['Ă'], undefined);
  });

  it('gives each set as eld walks it, present languages only, however many sets are read and in what order', () => {
    const sets = Array.from({ length: 3_000 }, (_, i) => {
      const set: (number | undefined)[] = [];
      set[1 + (i % 40)] = 6 + (i % 200);
      set[45 + (i % 7)] = i;
      return set;
    });
    const packed = new PackedNgramsBuilder();
    sets.forEach((set, i) => packed.add(` ${String.fromCharCode(i >> 8, i & 0xff)}`, set));
    const table = packedNgramTable(packed.parts());
    for (const pass of [0, 1]) {
      for (let n = 0; n < sets.length; n++) {
        const i = pass === 0 ? n : sets.length - 1 - n;
        const read = table[` ${String.fromCharCode(i >> 8, i & 0xff)}`]!;
        assert.deepEqual(read, sets[i]);
        assert.deepEqual(Object.keys(read), [String(1 + (i % 40)), String(45 + (i % 7))]);
      }
    }
  });

  it('keeps the later score set of an n-gram given twice, as an object literal would', () => {
    const builder = new PackedNgramsBuilder();
    builder.add(' abc', [1]);
    builder.add(' abd', [2]);
    builder.add(' abc', [3]);
    const table = packedNgramTable(builder.parts());
    assert.deepEqual(table[' abc'], [3]);
    assert.deepEqual(table[' abd'], [2]);
  });

  it('answers undefined for what eld could never ask and refuses writes', () => {
    const table = builder([' abc', [1]]);
    assert.equal((table as Record<symbol, unknown>)[Symbol.iterator], undefined);
    assert.equal(table.constructor, undefined, 'no prototype behind the table');
    assert.equal(table.__proto__, undefined);
    assert.equal(' abc' in table, true);
    assert.equal(' abd' in table, false);
    assert.throws(() => {
      'use strict';
      (table as Record<string, unknown>)[' abd'] = [2];
    }, TypeError);
  });
});

function builder(...entries: [string, number[]][]) {
  const packed = new PackedNgramsBuilder();
  for (const [ngram, set] of entries) packed.add(ngram, set);
  return packedNgramTable(packed.parts());
}
