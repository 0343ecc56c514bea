/**
 * The planning of a large request takes turns with the rest of the process
 * (docs/event-loop.md): 200,000 one-word segments into 10 targets are 2,000,000 pairs,
 * and planned in one go they held the event loop about half a second.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CallBudget, EngineLanguage, TranslationEngine } from '../../src/engines/engine.js';
import { pairOf } from '../../src/translation/pairs.js';
import { planCalls, type Pair, type UniqueSegment } from '../../src/translation/segment-work.js';
import { longestTurnDuring } from '../helpers/thread-cpu.js';
import { testTokenizer } from '../helpers/tokenizer.js';

const SEGMENTS = 200_000;
const TARGETS: EngineLanguage[] = Array.from({ length: 10 }, (_, i) => ({ code: `l${i}`, name: `Language ${i}`, rtl: false }));
/** The embedded default's shape of budget: a few slots, a hosted model's limits. */
const BUDGET: CallBudget = { maxInputTokens: 100_000, maxOutputTokens: 16_384, callOutputTokens: 4_000, parallelCalls: 4 };
const engine: TranslationEngine = { id: 'plan-only', budget: BUDGET, translate: () => Promise.reject(new Error('planning makes no call')) };
const BOUND_MS = 100;

const unique: UniqueSegment[] = Array.from({ length: SEGMENTS }, (_, i) => ({
  segment: { id: String(i), text: `word${i}` },
  plurals: '',
  format: 'json',
  tokens: 1 + (i % 3),
  terms: [],
}));
const pairs: Pair[] = [];
for (let target = 0; target < TARGETS.length; target++) for (let u = 0; u < SEGMENTS; u++) pairs.push(pairOf(target, u));

describe('planCalls of a large request', () => {
  for (const firstTargetEarly of [false, true]) {
    test(`yields to the event loop (2,000,000 pairs${firstTargetEarly ? ', first target early' : ''})`, { timeout: 120_000 }, async () => {
      const { result: calls, longestCpuMs, longestWallMs, ticks } = await longestTurnDuring(() => planCalls(pairs, unique, TARGETS, engine, testTokenizer, { firstTargetEarly }));
      // Every pair planned once: the plan is whole, whatever turns it took.
      let planned = 0;
      for (const { chunk } of calls) planned += chunk.segments.length * chunk.targets.length;
      assert.equal(planned, pairs.length);
      assert.ok(ticks > 1, 'timers ran while the plan was made');
      // Judged by the main thread's CPU within one wait, not the wait itself: beside other
      // test files on two cores the wait also counts time this process was not scheduled.
      assert.ok(longestCpuMs < BOUND_MS, `the planner held the loop for ${longestCpuMs.toFixed(0)} ms of CPU in one turn (longest wait ${longestWallMs.toFixed(0)} ms)`);
    });
  }
});
