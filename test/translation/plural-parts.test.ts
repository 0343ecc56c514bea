/**
 * plural-parts.ts on real shapes (formats' extraction and shapePlurals): a message cut
 * into parts and the parts' answers joined give back exactly what the whole message's
 * answer would be, nested messages travelling with their branch; a part whose answer
 * moved its forms around is joined in canonical order.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { EngineSegment } from '../../src/engines/engine.js';
import { getAdapter, shapePlurals } from '../../src/formats/index.js';
import { joinParts, largestMessage, pluralParts } from '../../src/translation/plural-parts.js';
import { countTokens } from '../helpers/tokenizer.js';

const NESTED =
  'You have {count, plural, offset:1 =0 {no messages} one {# message from {name}} other {# messages, {rank, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} page}}.';

function shaped(message: string, language: string): { segment: EngineSegment; pairs: Set<number> } {
  const [extracted] = getAdapter('plain').extract(message).segments;
  const shape = shapePlurals(extracted!, language)!;
  return { segment: { id: '7', text: shape.text }, pairs: new Set([...shape.branches.keys()].filter((pair) => shape.text.includes(`<g${pair}>`))) };
}

describe('a plural message in parts', () => {
  for (const count of [2, 3, 4, 7]) {
    test(`Arabic's forms of a nested message in ${count} parts join back to the whole answer`, () => {
      const { segment, pairs } = shaped(NESTED, 'ar');
      const outer = largestMessage(segment.text, pairs)!;
      assert.equal(outer.length, 7, 'the outer message: =0 and the six categories');
      const parts = pluralParts(segment, pairs, count, countTokens)!;
      assert.equal(parts.length, count);
      assert.deepEqual(parts.map((part) => part.id), parts.map((_, i) => `7~${i}`));
      const answer = (text: string): string => `«${text}»`;
      assert.equal(joinParts(segment, parts, parts.map((part) => answer(part.text)), pairs), answer(segment.text));
      // Every branch, nested messages with it, is in exactly one part.
      for (const branch of outer) assert.equal(parts.filter((part) => part.text.includes(`<g${branch.pair}>`)).length, 1);
    });
  }

  test('a part whose answer put its forms in another order is joined in canonical order', () => {
    const { segment, pairs } = shaped('We sent {count, plural, one {# invitation} other {# invitations}} today.', 'ar');
    const parts = pluralParts(segment, pairs, 2, countTokens)!;
    const branches = largestMessage(parts[1]!.text, pairs)!;
    const swapped =
      parts[1]!.text.slice(0, branches[0]!.start) +
      branches
        .map((branch) => parts[1]!.text.slice(branch.start, branch.end))
        .reverse()
        .join('') +
      parts[1]!.text.slice(branches[branches.length - 1]!.end);
    assert.notEqual(swapped, parts[1]!.text);
    assert.equal(joinParts(segment, parts, [parts[0]!.text, swapped], pairs), segment.text);
  });

  test('a message with one branch, or a count under two, is not cut', () => {
    const { segment, pairs } = shaped('{count, plural, other {# items}}', 'ja');
    assert.equal(pluralParts(segment, pairs, 2, countTokens), undefined);
    const arabic = shaped('We sent {count, plural, one {# invitation} other {# invitations}} today.', 'ar');
    assert.equal(pluralParts(arabic.segment, arabic.pairs, 1, countTokens), undefined);
  });
});
