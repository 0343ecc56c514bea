/**
 * The planning of a large request takes turns with the rest of the process
 * (docs/event-loop.md): 200,000 one-word segments into 10 targets are 2,000,000 pairs,
 * and planned in one go they held the event loop about half a second.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CallBudget, EngineLanguage, TranslationEngine } from '../../src/engines/engine.js';
import { planCalls, type Pair, type UniqueSegment } from '../../src/translation/segment-work.js';
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
for (let target = 0; target < TARGETS.length; target++) for (let u = 0; u < SEGMENTS; u++) pairs.push({ target, unique: u });

/** Runs `work` while a timer asks for the loop every millisecond; the longest it waited. */
async function longestWaitDuring<T>(work: () => Promise<T>): Promise<{ result: T; longest: number; ticks: number }> {
  let last = performance.now();
  let longest = 0;
  let ticks = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    ticks++;
  }, 1);
  try {
    const result = await work();
    longest = Math.max(longest, performance.now() - last);
    return { result, longest, ticks };
  } finally {
    clearInterval(timer);
  }
}

describe('planCalls of a large request', () => {
  for (const firstTargetEarly of [false, true]) {
    test(`yields to the event loop (2,000,000 pairs${firstTargetEarly ? ', first target early' : ''})`, { timeout: 120_000 }, async () => {
      const { result: calls, longest, ticks } = await longestWaitDuring(() => planCalls(pairs, unique, TARGETS, engine, testTokenizer, { firstTargetEarly }));
      // Every pair planned once: the plan is whole, whatever turns it took.
      let planned = 0;
      for (const { chunk } of calls) planned += chunk.segments.length * chunk.targets.length;
      assert.equal(planned, pairs.length);
      assert.ok(ticks > 1, 'timers ran while the plan was made');
      assert.ok(longest < BOUND_MS, `a timer waited ${longest.toFixed(0)} ms for the planner`);
    });
  }
});
