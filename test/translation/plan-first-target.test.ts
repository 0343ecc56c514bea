import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CallBudget, EngineLanguage, TranslationEngine } from '../../src/engines/engine.js';
import { pairOf } from '../../src/translation/pairs.js';
import { planCalls, type Pair, type UniqueSegment } from '../../src/translation/segment-work.js';
import { testTokenizer } from '../helpers/tokenizer.js';

const TARGETS: EngineLanguage[] = Array.from({ length: 36 }, (_, i) => ({ code: `l${i}`, name: `Language ${i}`, rtl: false }));
const BUDGET: CallBudget = { maxInputTokens: 6000, maxOutputTokens: 16384, callOutputTokens: 1500, parallelCalls: 8 };
/** planCalls reads only the budget; a call made here would be a bug. */
const engine: TranslationEngine = {
  id: 'plan-only',
  budget: BUDGET,
  translate: () => Promise.reject(new Error('planning makes no call')),
};

/** 30 JSON segments of 10–20 tokens, like the bench's UI file. */
const unique: UniqueSegment[] = Array.from({ length: 30 }, (_, i) => ({
  segment: { id: String(i), text: `segment ${i}` },
  plurals: '',
  format: 'json',
  tokens: 10 + ((i * 7) % 11),
  terms: [],
}));
const allPairs = (targets: number): Pair[] =>
  Array.from({ length: targets }, (_, target) => unique.map((_, u) => pairOf(target, u))).flat();

describe('planCalls', () => {
  test('a streamed request plans its first target alone, its calls first and within the slots', async () => {
    const calls = await planCalls(allPairs(36), unique, TARGETS, engine, testTokenizer, { firstTargetEarly: true });
    const leading = calls.findIndex((call) => !call.chunk.targets.some((target) => target.code === 'l0'));
    assert.ok(leading > 0 && leading <= 8, `${leading} calls for the first target, taken by the first round of slots`);
    for (const call of calls.slice(0, leading)) assert.deepEqual(call.chunk.targets, [TARGETS[0]]);
    for (const call of calls.slice(leading)) assert.ok(!call.chunk.targets.includes(TARGETS[0]!), 'the first target is not planned twice');
    // The first target is planned as a one-target request is.
    const alone = await planCalls(allPairs(1), unique, TARGETS, engine, testTokenizer);
    assert.equal(leading, alone.length);
  });

  test('without a stream, the plan is not shaped around the first target', async () => {
    const calls = await planCalls(allPairs(36), unique, TARGETS, engine, testTokenizer);
    assert.ok(calls.every((call) => call.chunk.targets.length > 1), 'targets are grouped');
  });

  test('a segment only some targets need (a plural shape) is a small unit, not a second plan of every segment', async () => {
    // Segment 29 is shaped for target 0 alone; targets 1–9 need another shape of it (index 30).
    const shaped: UniqueSegment[] = [...unique, { ...unique[29]!, segment: { id: '30', text: 'segment 30' } }];
    const pairs: Pair[] = [];
    for (let target = 0; target < 10; target++) {
      for (let u = 0; u < 29; u++) pairs.push(pairOf(target, u));
      pairs.push(pairOf(target, target === 0 ? 29 : 30));
    }
    const calls = await planCalls(pairs, shaped, TARGETS, engine, testTokenizer);
    const sent = new Map<string, number>();
    for (const { chunk } of calls) {
      for (const segment of chunk.segments) for (const target of chunk.targets) sent.set(`${segment.id}/${target.code}`, (sent.get(`${segment.id}/${target.code}`) ?? 0) + 1);
    }
    assert.equal(sent.size, pairs.length, 'every pair is planned');
    assert.ok([...sent.values()].every((count) => count === 1), 'once');
    const shapedCalls = calls.filter(({ chunk }) => chunk.segments.some((segment) => segment.id === '29' || segment.id === '30'));
    assert.equal(shapedCalls.length, 2, 'each shape is one small call');
    for (const { chunk } of shapedCalls) assert.equal(chunk.segments.length, 1, 'the shared segments are not planned again with a shape');
    assert.ok(calls.length <= 2 + 2 * 8, `${calls.length} calls`);
  });
});
