/**
 * plural-parts.ts on real shapes (formats' extraction and shapePlurals): a message cut
 * into parts and the parts' answers joined give back exactly what the whole message's
 * answer would be, nested messages travelling with their branch; a part whose answer
 * moved its forms around is joined in canonical order.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CallBudget, EngineLanguage, EngineSegment, TranslationEngine } from '../../src/engines/engine.js';
import { getAdapter, shapePlurals } from '../../src/formats/index.js';
import { findLanguage } from '../../src/languages.js';
import { joinParts, largestMessage, partOf, pluralParts } from '../../src/translation/plural-parts.js';
import { inlineDocument } from '../../src/translation/prepared-document.js';
import { targetOf, uniqueOf } from '../../src/translation/pairs.js';
import { distinctSegments, planCalls } from '../../src/translation/segment-work.js';
import { countTokens, testTokenizer } from '../helpers/tokenizer.js';

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

/** A UI file of 29 short strings and one ICU plural message, as JSON. */
function uiFile(): string {
  const strings: Record<string, string> = {};
  for (let i = 0; i < 29; i++) strings[`key_${i}`] = `Label number ${i} of the settings page, shown to every member`;
  strings.invite_sent = 'We sent {count, plural, one {# invitation} other {# invitations}} to your colleagues in the workspace.';
  return JSON.stringify(strings, null, 2);
}

const engineWith = (parallelCalls: number): TranslationEngine => ({
  id: 'plan-only',
  budget: { maxInputTokens: 6000, maxOutputTokens: 16384, callOutputTokens: 1500, parallelCalls } satisfies CallBudget,
  translate: () => Promise.reject(new Error('planning makes no call')),
});

async function planned(codes: readonly string[], parallelCalls: number, firstTargetEarly = false) {
  const targets: EngineLanguage[] = codes.map((code) => findLanguage(code)!);
  const { unique, pairs } = await distinctSegments([inlineDocument(getAdapter('json').extract(uiFile()), undefined)], undefined, targets);
  const calls = await planCalls(pairs, unique, targets, engineWith(parallelCalls), testTokenizer, { firstTargetEarly });
  // Every pair planned exactly once: a segment in parts once per part, all its parts.
  const sent = new Map<string, Set<number | undefined>>();
  for (const { chunk } of calls) {
    for (const segment of chunk.segments) {
      const { segment: u, part } = partOf(segment.id);
      for (const target of chunk.targets) {
        const key = `${target.code}/${u}`;
        const parts = sent.get(key) ?? new Set();
        assert.ok(!parts.has(part), `${key} part ${part} planned twice`);
        sent.set(key, parts.add(part));
      }
    }
  }
  assert.deepEqual([...sent.keys()].sort(), Array.from(pairs, (pair) => `${targets[targetOf(pair)]!.code}/${uniqueOf(pair)}`).sort());
  return { calls, unique };
}

describe('planCalls with a plural message larger than a balanced call', () => {
  test('into Arabic alone on eight slots, the message goes in parts, each in a call of its own', async () => {
    const { calls } = await planned(['ar'], 8);
    const withParts = calls.filter(({ chunk }) => chunk.segments.some((segment) => partOf(segment.id).part !== undefined));
    assert.ok(withParts.length >= 2, `${withParts.length} calls hold its parts`);
    for (const { chunk } of withParts) assert.equal(chunk.segments.filter((segment) => partOf(segment.id).part !== undefined).length, 1);
  });

  test('on one slot (pseudo, ENGINE_CONCURRENCY=1) nothing is cut: parts would only add time', async () => {
    const { calls } = await planned(['ar'], 1);
    assert.ok(calls.every(({ chunk }) => chunk.segments.every((segment) => partOf(segment.id).part === undefined)));
  });

  test('into German, whose forms are the source’s, nothing is cut', async () => {
    const { calls } = await planned(['de'], 8);
    assert.ok(calls.every(({ chunk }) => chunk.segments.every((segment) => partOf(segment.id).part === undefined)));
  });

  test('a stream’s first target has its message in parts as a one-target request would, the rest plan is whole', async () => {
    const alone = await planned(['ar'], 8);
    const { calls } = await planned(['ar', 'de', 'ru', 'uk', 'pl', 'fr', 'es', 'it', 'ja', 'cs'], 8, true);
    const leading = calls.filter(({ chunk }) => chunk.targets.length === 1 && chunk.targets[0]!.code === 'ar');
    const partsOf = (list: typeof calls) => list.flatMap(({ chunk }) => chunk.segments.filter((segment) => partOf(segment.id).part !== undefined).map((segment) => segment.text));
    assert.ok(partsOf(leading).length >= 2, 'the first target’s message is in parts');
    assert.deepEqual(partsOf(leading), partsOf(alone.calls));
  });
});
