/**
 * o200k's ranks read from the package's `.tiktoken` data (tokenizer/o200k-ranks.ts) must be
 * the very ranks gpt-tokenizer's own module holds, token for token, text or bytes alike
 * (the counts they give: test/tokenizer/compact-ranks.test.ts). Text in any other shape is
 * refused, not misread.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTiktokenRanks, readO200kRanks } from '../../src/tokenizer/o200k-ranks.js';

describe('readO200kRanks', () => {
  it("reads every rank exactly as gpt-tokenizer's module holds it", async () => {
    const { default: expected } = (await import('gpt-tokenizer/esm/bpeRanks/o200k_base')) as { default: (string | number[])[] };
    const ranks = readO200kRanks();
    assert.equal(ranks.length, expected.length);
    assert.ok(ranks.some((token) => typeof token !== 'string'), 'some tokens are bytes that are not text on their own');
    for (let rank = 0; rank < expected.length; rank++) {
      if (!(rank in expected)) assert.ok(!(rank in ranks), `rank ${rank} is a hole in the module`);
      else assert.deepStrictEqual(ranks[rank], expected[rank], `rank ${rank}`);
    }
  });
});

describe('parseTiktokenRanks', () => {
  it('gives text for UTF-8 that encodes back to its bytes and bytes for anything else', () => {
    const line = (bytes: number[], rank: number) => `${Buffer.from(bytes).toString('base64')} ${rank}`;
    const text = [line([0x68, 0x69], 0), line([0xc3, 0xa9], 1), line([0xc3], 2), line([0xef, 0xbb, 0xbf, 0x61], 3), ''].join('\n');
    assert.deepStrictEqual(parseTiktokenRanks(text), ['hi', 'é', [0xc3], [0xef, 0xbb, 0xbf, 0x61]]);
  });

  it('refuses a line in another shape, saying which line', () => {
    assert.throws(() => parseTiktokenRanks('aGk= 0\naGk=\n', 'x.tiktoken'), /x\.tiktoken, line 2: expected "<base64 bytes> <rank>"/);
    assert.throws(() => parseTiktokenRanks('aGk= 0\naGk= -1\n'), /line 2/);
    assert.throws(() => parseTiktokenRanks('a*k= 0\n'), /line 1/);
    assert.throws(() => parseTiktokenRanks('aGk= 0\naGk= 0\n'), /line 2: rank 0 given twice/);
  });
});
