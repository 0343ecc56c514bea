/**
 * Plans a request's unique segments and targets into model calls, for the time a user
 * waits and then for cost (docs/decisions/0012-latency-planned-model-calls.md, and 0087
 * for the rule below).
 *
 * A model writes its answer at a fixed speed, so a call takes its time to first token
 * plus its output tokens divided by that speed, and a request takes as long as its
 * slowest slot. The plan:
 *
 * 1. Every call's expected answer stays under the output budget
 *    (`budget.callOutputTokens`, CALL_OUTPUT_BUDGET_TOKENS) and its source under
 *    `budget.maxInputTokens`.
 * 2. Calls are balanced by their expected OUTPUT: a plan is target groups × runs of
 *    segments, and each group's runs are cut so that the largest expected answer is as
 *    small as contiguous runs allow (not by segment count or source size: the answer is
 *    what takes time).
 * 3. Every shape that keeps (1) is timed as it will run: its calls, in the order they are
 *    issued, taken by `budget.parallelCalls` slots as each slot frees. The fastest wins;
 *    among shapes within TIME_TOLERANCE of it, the one that sends the fewest input tokens
 *    (every call repeats the fixed instruction block, every target group its runs'
 *    source), so a small request fills the slots and a large one is not split further
 *    than its rounds need.
 *
 * Runs are in document order and never cut inside a segment; an oversized segment travels
 * alone. Runs are listed target group by target group, so the first group's calls have
 * written a run's prefix to the provider's cache before the next group's read it.
 */
import type { CallBudget, EngineLanguage, EngineSegment } from '../engines/engine.js';
import { keyedAnswer } from '../engines/prompt.js';
import type { Turns } from '../event-loop/turns.js';

/** Expected output tokens per source token and target (docs/engine-notes.md b6 seeds 1.2–2.5; 1.5 is a middle). */
export const OUTPUT_EXPANSION = 1.5;
/** Output tokens per segment and target beyond its text: quotes and comma in the answer's array (measured 1.1–1.9). */
const SEGMENT_ENVELOPE_TOKENS = 2;
/** Output tokens of one target's wrapper in the answer, `{"lang":"de","segments":[…]},` (measured with o200k). */
const TARGET_ENVELOPE_TOKENS = 6;
/** Output tokens of the answer's own wrapper, `{"translations":[…]}` (measured with o200k). */
const CALL_ENVELOPE_TOKENS = 5;
/**
 * Output tokens of a keyed answer's whole wrapper, `{"de":[…]}`, which a request of one
 * target gets (engines/prompt.ts keyedAnswer; 5 for a regional code such as `pt-BR`).
 */
const KEYED_ENVELOPE_TOKENS = 3;
/** A call's time to first token, in output tokens written meanwhile (400 ms at 80 tokens/s, a hosted small model). */
const CALL_LATENCY_TOKENS = 32;
/** The input every call repeats: system prompt, answer schema, header lines (605 with prompt mt-2026-11-v4). */
export const FIXED_INPUT_TOKENS = 600;
/** Of the provider's output limit, the share a call may be planned to fill (an answer cut at the limit costs a call). */
const HARD_LIMIT_SHARE = 0.75;
/**
 * Plans within this share of the fastest count as fast as it; the cheapest of them wins.
 * Small, because the bench holds every request to 1.25× its limit and our own work and the
 * estimate's error take the rest.
 */
export const TIME_TOLERANCE = 0.02;

export interface PlanOptions {
  /** When each slot frees from calls issued before these (expectedCallTime units), to plan around them. */
  readonly busy?: readonly number[];
  /** How many targets the whole request has (default: these), which decides the answer's wrapper. */
  readonly requestTargets?: number;
}

export interface Chunk {
  readonly segments: readonly EngineSegment[];
  readonly targets: readonly EngineLanguage[];
}

/**
 * The calls for `segments` × `targets`, taking turns with the rest of the process: the
 * search over shapes gives the event loop a turn whenever `turns` says so (a request of
 * 200,000 segments has its planner fill runs for dozens of capacities; docs/event-loop.md).
 */
export async function planChunksInTurns(
  segments: readonly EngineSegment[],
  targets: readonly EngineLanguage[],
  budget: CallBudget,
  /** Source tokens of a segment (the document's counts, or the process's tokenizer). */
  tokensOf: (segment: EngineSegment) => number,
  options: PlanOptions,
  turns: Turns,
): Promise<Chunk[]> {
  const steps = planning(segments, targets, budget, tokensOf, options);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await turns.yieldIfLong();
  }
}

/** The plan, as a generator that pauses between steps of its search (each well under a turn). */
function* planning(
  segments: readonly EngineSegment[],
  targets: readonly EngineLanguage[],
  budget: CallBudget,
  tokensOf: (segment: EngineSegment) => number,
  options: PlanOptions,
): Generator<void, Chunk[]> {
  if (segments.length === 0 || targets.length === 0) return [];
  const keyed = keyedAnswer(options.requestTargets ?? targets.length);
  const planner = new Planner(segments.map(tokensOf), budget, keyed, options.busy);
  yield;
  const shape = yield* planner.choose(targets.length);
  const chunks: Chunk[] = [];
  const groups = splitEvenly(targets, shape.groups);
  for (const group of groups) {
    const count = chunksOfGroup(shape.chunks, group.length, groups[0]!.length);
    for (const run of yield* planner.runs(count)) {
      chunks.push({ segments: segments.slice(run.start, run.end), targets: group });
    }
  }
  return chunks;
}

/** The output tokens a segment of `sourceTokens` is expected to take in one target's answer. */
export function expectedOutputTokens(sourceTokens: number): number {
  return sourceTokens * OUTPUT_EXPANSION + SEGMENT_ENVELOPE_TOKENS;
}

/**
 * How long a planned call is expected to take, in output tokens (its time to first token
 * included); `requestTargets` is the whole request's target count (it decides the wrapper).
 */
export function expectedCallTime(chunk: Chunk, tokensOf: (segment: EngineSegment) => number, requestTargets: number): number {
  const output = chunk.segments.reduce((sum, segment) => sum + expectedOutputTokens(tokensOf(segment)), 0);
  return CALL_LATENCY_TOKENS + expectedCallOutput(chunk.targets.length, output, keyedAnswer(requestTargets));
}

/** When the last of `chunks` is expected to end on `slots` slots, issued in this order (expectedCallTime's units). */
export function expectedPlanTime(
  chunks: readonly Chunk[],
  slots: number,
  tokensOf: (segment: EngineSegment) => number,
  requestTargets: number,
): number {
  return finishTime(
    chunks.map((chunk) => expectedCallTime(chunk, tokensOf, requestTargets) - CALL_LATENCY_TOKENS),
    Math.max(1, slots),
    [],
  );
}

/** The expected answer of one call: its wrapper, and each target's wrapper and segments (`keyed`: engines/prompt.ts). */
export function expectedCallOutput(targets: number, segmentsOutput: number, keyed: boolean): number {
  const envelope = envelopeOf(keyed);
  return envelope.call + targets * (envelope.target + segmentsOutput);
}

/** Output tokens of an answer's wrapper and of each target's in it, by shape. */
function envelopeOf(keyed: boolean): { readonly call: number; readonly target: number } {
  return keyed ? KEYED_ENVELOPE : GROUPED_ENVELOPE;
}
const KEYED_ENVELOPE = { call: KEYED_ENVELOPE_TOKENS, target: 0 } as const;
const GROUPED_ENVELOPE = { call: CALL_ENVELOPE_TOKENS, target: TARGET_ENVELOPE_TOKENS } as const;

interface Shape {
  /** Target groups, as even as the count allows. */
  readonly groups: number;
  /** Runs of segments for a group of the largest size (smaller groups get proportionally fewer). */
  readonly chunks: number;
  readonly calls: number;
  /** Expected input tokens over all calls (fixed block plus source). */
  readonly inputTokens: number;
  /** Expected time until the last call ends, in output tokens of one call's writing. */
  readonly time: number;
}

/** A run of segments [start, end) and its expected output for one target. */
interface Run {
  readonly start: number;
  readonly end: number;
  readonly output: number;
}

class Planner {
  /**
   * Expected output per target of segments [0, i), in half tokens (1.5 × an integer count
   * stays whole, so sums are exact), and their source tokens: a run's end is found by a
   * binary search on these instead of a walk over every segment, because the planner fills
   * runs for dozens of capacities and 200,000 segments made that walk the loop's longest
   * hold (docs/event-loop.md).
   */
  readonly #halfSums: Float64Array;
  readonly #sizeSums: Float64Array;
  readonly #count: number;
  readonly #source: number;
  readonly #largestHalves: number;
  readonly #totalHalves: number;
  readonly #maxInput: number;
  readonly #callBudget: number;
  readonly #slots: number;
  readonly #cuts = new Map<number, Run[]>();
  readonly #busy: readonly number[];
  readonly #keyed: boolean;

  constructor(sizes: readonly number[], budget: CallBudget, keyed: boolean, busy: readonly number[] = []) {
    this.#busy = busy;
    this.#keyed = keyed;
    this.#count = sizes.length;
    this.#halfSums = new Float64Array(sizes.length + 1);
    this.#sizeSums = new Float64Array(sizes.length + 1);
    let largest = 0;
    for (let index = 0; index < sizes.length; index++) {
      const halves = Math.round(2 * expectedOutputTokens(sizes[index]!));
      largest = Math.max(largest, halves);
      this.#halfSums[index + 1] = this.#halfSums[index]! + halves;
      this.#sizeSums[index + 1] = this.#sizeSums[index]! + sizes[index]!;
    }
    this.#source = this.#sizeSums[sizes.length]!;
    this.#largestHalves = largest;
    this.#totalHalves = this.#halfSums[sizes.length]!;
    this.#maxInput = budget.maxInputTokens;
    const hard = HARD_LIMIT_SHARE * budget.maxOutputTokens;
    this.#callBudget = Math.max(1, Math.min(budget.callOutputTokens ?? hard, hard));
    this.#slots = Math.max(1, budget.parallelCalls ?? 1);
  }

  /** Target groups × runs per group: the fastest shape, or the cheapest of those about as fast. */
  *choose(targetCount: number): Generator<void, Shape> {
    const n = this.#count;
    const candidates: Shape[] = [];
    for (let groups = 1; groups <= targetCount; groups++) {
      const groupSize = Math.ceil(targetCount / groups);
      // Only the group counts that shrink the largest group are distinct plans.
      if (groups > 1 && groupSize === Math.ceil(targetCount / (groups - 1))) continue;
      // One segment for all the group's targets must fit the budget, or the group is too big.
      if (groupSize > 1 && expectedCallOutput(groupSize, this.#largestHalves / 2, this.#keyed) > this.#callBudget) continue;
      const sizesOfGroups = splitEvenly(Array.from({ length: targetCount }), groups).map((group) => group.length);
      // The fewest runs that keep each call of this group size within the budget.
      const envelope = envelopeOf(this.#keyed);
      const perTarget = (this.#callBudget - envelope.call) / groupSize - envelope.target;
      const fewest = this.#runCount(Math.max(0, Math.floor(2 * perTarget)), Infinity);
      yield;
      // More runs fill the slots or even out the last round; a whole round more than the
      // fewest runs need only adds a time to first token.
      let enough = Infinity;
      for (let chunks = fewest; chunks <= n; chunks++) {
        const shape = yield* this.#shape(groups, chunks, groupSize, sizesOfGroups);
        candidates.push(shape);
        if (enough === Infinity) enough = (Math.ceil(shape.calls / this.#slots) + 1) * this.#slots;
        if (shape.calls >= enough) break;
      }
    }
    const fastest = candidates.reduce((best, candidate) => (candidate.time < best.time ? candidate : best));
    const fastEnough = fastest.time * (1 + TIME_TOLERANCE);
    let chosen = fastest;
    for (const candidate of candidates) {
      if (candidate.time > fastEnough) continue;
      const cheaper = candidate.inputTokens - chosen.inputTokens;
      if (cheaper < 0 || (cheaper === 0 && candidate.time < chosen.time)) chosen = candidate;
    }
    return chosen;
  }

  /** At most `count` runs in document order whose largest expected output is as small as runs allow. */
  *runs(count: number): Generator<void, Run[]> {
    let cut = this.#cuts.get(count);
    if (!cut) {
      // The smallest capacity (half tokens per target) that `count` runs can keep.
      let low = Math.max(this.#largestHalves, Math.floor(this.#totalHalves / count));
      let high = this.#totalHalves;
      while (low < high) {
        const middle = Math.floor((low + high) / 2);
        if (this.#runCount(middle, count) <= count) high = middle;
        else low = middle + 1;
        yield;
      }
      cut = this.#greedy(low);
      this.#cuts.set(count, cut);
    }
    return cut;
  }

  *#shape(groups: number, chunks: number, groupSize: number, sizesOfGroups: readonly number[]): Generator<void, Shape> {
    const outputs: number[] = [];
    for (const size of sizesOfGroups) {
      for (const run of yield* this.runs(chunksOfGroup(chunks, size, groupSize))) outputs.push(expectedCallOutput(size, run.output, this.#keyed));
    }
    const calls = outputs.length;
    const inputTokens = calls * FIXED_INPUT_TOKENS + groups * this.#source;
    return { groups, chunks, calls, inputTokens, time: finishTime(outputs, this.#slots, this.#busy) };
  }

  /**
   * Runs filled in order up to `capacity` half tokens of output per target and the input
   * limit; a segment larger than either travels alone.
   */
  #greedy(capacity: number): Run[] {
    const runs: Run[] = [];
    for (let start = 0; start < this.#count; ) {
      const end = this.#runEnd(start, capacity);
      runs.push({ start, end, output: (this.#halfSums[end]! - this.#halfSums[start]!) / 2 });
      start = end;
    }
    return runs;
  }

  /** How many runs #greedy makes at `capacity`, counted up to one past `limit` (the search only compares). */
  #runCount(capacity: number, limit: number): number {
    let count = 0;
    for (let start = 0; start < this.#count && count <= limit; count++) start = this.#runEnd(start, capacity);
    return count;
  }

  /** Where #greedy's run from `start` ends: the most segments that keep both limits, at least one. */
  #runEnd(start: number, capacity: number): number {
    // Both sums only grow, so the segments that fit after `start` are a prefix of the rest.
    let fits = lastAtMost(this.#halfSums, start, this.#halfSums[start]! + capacity);
    const inputLimit = this.#sizeSums[start]! + this.#maxInput;
    if (this.#sizeSums[fits]! > inputLimit) fits = lastAtMost(this.#sizeSums, start, inputLimit);
    return Math.max(start + 1, fits);
  }
}

/** The largest index from `from` on whose (non-decreasing) sum is at most `limit`; `from` - 1 when none. */
function lastAtMost(sums: Float64Array, from: number, limit: number): number {
  let low = from - 1;
  let high = sums.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (sums[middle]! <= limit) low = middle;
    else high = middle - 1;
  }
  return low;
}
/**
 * When the last call ends, in output tokens: calls in the order given, each taken by the
 * first slot to free (as runLimited and the provider's slots run them), each lasting its
 * time to first token plus its output.
 */
function finishTime(outputs: readonly number[], slots: number, busy: readonly number[]): number {
  const free = Array.from({ length: busy.length > 0 ? slots : Math.min(slots, outputs.length) }, (_, slot) => busy[slot] ?? 0);
  let end = Math.max(0, ...busy);
  for (const output of outputs) {
    let earliest = 0;
    for (let slot = 1; slot < free.length; slot++) if (free[slot]! < free[earliest]!) earliest = slot;
    free[earliest] = free[earliest]! + CALL_LATENCY_TOKENS + output;
    end = Math.max(end, free[earliest]!);
  }
  return end;
}

/** A smaller group writes less per run, so it gets proportionally fewer runs of the same size. */
function chunksOfGroup(chunksOfLargest: number, size: number, largest: number): number {
  return Math.ceil((chunksOfLargest * size) / largest);
}

/** `items` in `count` consecutive groups whose sizes differ by at most one. */
function splitEvenly<T>(items: readonly T[], count: number): T[][] {
  const groups: T[][] = [];
  let start = 0;
  for (let group = 0; group < count; group++) {
    const size = Math.floor(items.length / count) + (group < items.length % count ? 1 : 0);
    groups.push(items.slice(start, start + size));
    start += size;
  }
  return groups.filter((group) => group.length > 0);
}
