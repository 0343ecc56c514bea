import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CallBudget, EngineLanguage, EngineSegment } from '../../src/engines/engine.js';
import { Turns } from '../../src/event-loop/turns.js';
import { OUTPUT_EXPANSION, planChunksInTurns, type Chunk, type PlanOptions } from '../../src/translation/plan.js';

/** What the bench calls a call's time to first token, in output tokens (400 ms at 80 tokens/s). */
const TTFT_TOKENS = 32;
/** The answer's wrappers as o200k counts them: `{"translations":[…]}` and `{"lang":"xx","segments":[…]},`. */
const CALL_WRAPPER = 5;
const TARGET_WRAPPER = 6;
/** A one-target request's keyed answer, `{"xx":[…]}`, as o200k counts it (engines/prompt.ts). */
const KEYED_WRAPPER = 3;

/** The planner as segment-work.ts runs it. */
const planChunks = (list: readonly EngineSegment[], targets: readonly EngineLanguage[], budget: CallBudget, tokensOf: (segment: EngineSegment) => number, options: PlanOptions = {}): Promise<Chunk[]> =>
  planChunksInTurns(list, targets, budget, tokensOf, options, new Turns());

const LANGS: EngineLanguage[] = Array.from({ length: 36 }, (_, i) => ({ code: `l${i}`, name: `Language ${i}`, rtl: false }));
/** The defaults a model engine plans with: 1,500 output tokens a call, 8 calls at once. */
const MODEL: CallBudget = { maxInputTokens: 6000, maxOutputTokens: 16384, callOutputTokens: 1500, parallelCalls: 8 };

/** Segments with given o200k sizes; the planner reads sizes through `tokensOf`. */
function segments(sizes: readonly number[]): { list: EngineSegment[]; tokensOf: (segment: EngineSegment) => number } {
  const list = sizes.map((_, i) => ({ id: `s${i}`, text: `segment ${i}` }));
  const size = new Map(list.map((segment, i) => [segment, sizes[i]!]));
  return { list, tokensOf: (segment) => size.get(segment)! };
}

/** 30 UI strings of 10–20 tokens (452 in all), like the bench's JSON file. */
const UI_STRINGS = Array.from({ length: 30 }, (_, i) => 10 + ((i * 7) % 11));
/** 400 paragraphs of 40–160 tokens (~40k in all), like the bench's markdown document. */
const LONG_DOCUMENT = Array.from({ length: 400 }, (_, i) => 40 + ((i * 37) % 120));

const expected = (chunk: Chunk, size: (segment: EngineSegment) => number): number =>
  chunk.targets.length * chunk.segments.reduce((sum, segment) => sum + size(segment) * OUTPUT_EXPANSION + 2, 0);
/** The whole answer a call is expected to write, wrappers included: keyed when the request has one target. */
const answer = (chunk: Chunk, size: (segment: EngineSegment) => number, requestTargets: number): number =>
  (requestTargets === 1 ? KEYED_WRAPPER : CALL_WRAPPER + chunk.targets.length * TARGET_WRAPPER) + expected(chunk, size);

/** Every (segment, target) pair exactly once, and each chunk's segments in document order. */
function assertCoversEachPairOnce(chunks: readonly Chunk[], list: readonly EngineSegment[], targets: readonly EngineLanguage[]): void {
  const seen = new Map<string, number>();
  for (const chunk of chunks) {
    const positions = chunk.segments.map((segment) => list.indexOf(segment));
    assert.deepEqual(positions, [...positions].sort((a, b) => a - b), 'segments keep document order');
    for (let i = 1; i < positions.length; i++) assert.equal(positions[i], positions[i - 1]! + 1, 'a chunk is a run of segments');
    for (const segment of chunk.segments) {
      for (const target of chunk.targets) {
        const key = `${segment.id}/${target.code}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
      }
    }
  }
  assert.equal(seen.size, list.length * targets.length, 'every pair is planned');
  assert.ok([...seen.values()].every((count) => count === 1), 'no pair is planned twice');
}

describe('planChunksInTurns', () => {
  test('a short text into many targets fills the slots with target groups; without slots it is one call', async () => {
    const { list, tokensOf } = segments([4]);
    const chunks = await planChunks(list, LANGS, MODEL, tokensOf);
    assert.equal(chunks.length, 8, 'one call per slot');
    assertCoversEachPairOnce(chunks, list, LANGS);
    const sizes = chunks.map((chunk) => chunk.targets.length);
    assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `target groups ${sizes}`);
    assert.equal((await planChunks(list, LANGS, { maxInputTokens: 6000, maxOutputTokens: 16384 }, tokensOf)).length, 1);
  });

  test('a UI file into one target is split so that its slowest call is within 1.25× the limit of 8 slots', async () => {
    const { list, tokensOf } = segments(UI_STRINGS);
    const chunks = await planChunks(list, LANGS.slice(0, 1), MODEL, tokensOf);
    assertCoversEachPairOnce(chunks, list, LANGS.slice(0, 1));
    assert.ok(chunks.length <= 8, 'one round');
    const answers = chunks.map((chunk) => answer(chunk, tokensOf, 1));
    const limit = TTFT_TOKENS + answers.reduce((sum, output) => sum + output, 0) / 8;
    const slowest = TTFT_TOKENS + Math.max(...answers);
    assert.ok(slowest <= 1.25 * limit, `slowest call ${slowest} against the limit ${limit.toFixed(1)}`);
  });

  test('calls are balanced by expected output, not by segment count', async () => {
    // Ten short labels, then five long paragraphs: even counts would give one call all the long ones.
    const sizes = [...Array.from({ length: 10 }, () => 3), ...Array.from({ length: 5 }, () => 60)];
    const { list, tokensOf } = segments(sizes);
    const budget = { ...MODEL, parallelCalls: 4 };
    const chunks = await planChunks(list, LANGS.slice(0, 1), budget, tokensOf);
    assertCoversEachPairOnce(chunks, list, LANGS.slice(0, 1));
    const outputs = chunks.map((chunk) => expected(chunk, tokensOf));
    const largestSegment = 60 * OUTPUT_EXPANSION + 2;
    const fair = outputs.reduce((sum, output) => sum + output, 0) / chunks.length;
    // Contiguous runs can miss an even share by less than one segment, no more.
    assert.ok(Math.max(...outputs) < fair + largestSegment, `outputs ${outputs}`);
    const counts = chunks.map((chunk) => chunk.segments.length);
    assert.ok(Math.max(...counts) >= 2 * Math.min(...counts), `segment counts ${counts} follow the output, not the count`);
  });

  test('fewer segments than slots: a call per segment', async () => {
    const { list, tokensOf } = segments([5, 9, 7, 12, 6]);
    const chunks = await planChunks(list, LANGS.slice(0, 1), MODEL, tokensOf);
    assert.equal(chunks.length, list.length);
    assertCoversEachPairOnce(chunks, list, LANGS.slice(0, 1));
  });

  test('calls issued before (busy slots) are planned around', async () => {
    const { list, tokensOf } = segments(UI_STRINGS);
    const free = await planChunks(list, LANGS.slice(0, 1), MODEL, tokensOf);
    // Half the slots are taken for about as long as the whole file takes on the other half.
    const busy = [2000, 2000, 2000, 2000, 0, 0, 0, 0];
    const around = await planChunks(list, LANGS.slice(0, 1), MODEL, tokensOf, { busy });
    assertCoversEachPairOnce(around, list, LANGS.slice(0, 1));
    assert.ok(around.length < free.length, `${around.length} calls on four free slots, ${free.length} on eight`);
    assert.ok(around.length <= 4, 'no call waits for a busy slot');
  });

  test('a UI file into 36 targets keeps every call near the output budget, in full rounds of the slots', async () => {
    const { list, tokensOf } = segments(UI_STRINGS);
    const chunks = await planChunks(list, LANGS, MODEL, tokensOf);
    assertCoversEachPairOnce(chunks, list, LANGS);
    for (const chunk of chunks) assert.ok(expected(chunk, tokensOf) <= 1500 * 1.1, `a call of ${expected(chunk, tokensOf)}`);
    const total = 36 * UI_STRINGS.reduce((sum, size) => sum + size * OUTPUT_EXPANSION + 2, 0);
    const rounds = Math.ceil(chunks.length / 8);
    assert.equal(rounds, Math.ceil(total / 1500 / 8), 'no more rounds than the budget forces');
    assert.equal(chunks.length % 8, 0, 'the last round is full');
  });

  test('with 36 slots the 36-target file runs in one round', async () => {
    const { list, tokensOf } = segments(UI_STRINGS);
    const chunks = await planChunks(list, LANGS, { ...MODEL, parallelCalls: 36 }, tokensOf);
    assert.ok(chunks.length <= 36, `${chunks.length} calls`);
    assertCoversEachPairOnce(chunks, list, LANGS);
  });

  test('a long document into one target is cut into runs of segments under the budget, in no more rounds than it needs', async () => {
    const { list, tokensOf } = segments(LONG_DOCUMENT);
    const chunks = await planChunks(list, LANGS.slice(0, 1), MODEL, tokensOf);
    assertCoversEachPairOnce(chunks, list, LANGS.slice(0, 1));
    for (const chunk of chunks) assert.ok(answer(chunk, tokensOf, 1) <= 1500, `a call of ${answer(chunk, tokensOf, 1)}`);
    const total = chunks.reduce((sum, chunk) => sum + answer(chunk, tokensOf, 1), 0);
    const rounds = Math.ceil(chunks.length / 8);
    assert.ok(rounds <= Math.ceil(total / 1500 / 8) + 1, `${rounds} rounds for ${total} output tokens`);
  });

  test('a long document into many targets keeps every call within the budget', async () => {
    const { list, tokensOf } = segments(LONG_DOCUMENT);
    const targets = LANGS.slice(0, 5);
    const chunks = await planChunks(list, targets, MODEL, tokensOf);
    assertCoversEachPairOnce(chunks, list, targets);
    for (const chunk of chunks) assert.ok(answer(chunk, tokensOf, targets.length) <= 1500, `a call of ${answer(chunk, tokensOf, targets.length)}`);
  });

  test('the input limit holds, and a segment larger than it travels alone', async () => {
    const { list, tokensOf } = segments([30, 26, 900, 40, 35]);
    const chunks = await planChunks(list, LANGS.slice(0, 2), { ...MODEL, maxInputTokens: 60 }, tokensOf);
    assertCoversEachPairOnce(chunks, list, LANGS.slice(0, 2));
    for (const chunk of chunks) {
      const source = chunk.segments.reduce((sum, segment) => sum + tokensOf(segment), 0);
      assert.ok(source <= 60 || chunk.segments.length === 1, `${source} source tokens in ${chunk.segments.length} segments`);
    }
  });

  test('an engine without slots (pseudo) gets the fewest calls its limits allow', async () => {
    const { list, tokensOf } = segments(UI_STRINGS);
    const chunks = await planChunks(list, LANGS, { maxInputTokens: 6000, maxOutputTokens: 16384 }, tokensOf);
    assert.ok(chunks.length <= 3, `${chunks.length} calls`);
    assertCoversEachPairOnce(chunks, list, LANGS);
  });

  test('nothing to translate is no call', async () => {
    const { list, tokensOf } = segments([1]);
    assert.deepEqual(await planChunks([], LANGS, MODEL, tokensOf), []);
    assert.deepEqual(await planChunks(list, [], MODEL, tokensOf), []);
  });
});
