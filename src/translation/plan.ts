/**
 * Plans a request's unique segments and targets into model calls, for the time a user
 * waits and then for cost (docs/decisions/0012-latency-planned-model-calls.md).
 *
 * A model writes its answer at a fixed speed, so a call takes about its output tokens
 * divided by that speed, and a request takes about as many such calls as run one after
 * another on one slot. The plan:
 *
 * 1. Every call's expected answer stays under the output budget
 *    (`budget.callOutputTokens`, CALL_OUTPUT_BUDGET_TOKENS) and its source under
 *    `budget.maxInputTokens`.
 * 2. Among the plans that keep (1), the fastest wins — rounds of calls on
 *    `budget.parallelCalls` slots, each as long as an average call, plus the largest
 *    call's excess over the average once: a large request
 *    fans out into chunks (runs of segments) × target groups that fill the slots in
 *    even waves; a request too small to be worth splitting stays one call.
 * 3. Among plans about as fast, the one that sends the fewest input tokens wins: every
 *    call repeats the fixed instruction block, and every target group repeats its
 *    chunk's source, so chunks are preferred to target groups, and fewer calls to more.
 *
 * A split made for speed is worth it only when the calls still write
 * MIN_CALL_OUTPUT_TOKENS on average and each chunk carries at least
 * MIN_CHUNK_SOURCE_TOKENS of source (context for the model); the fewest calls the limits
 * allow are always a choice. Chunks cut only between segments, in document order, at
 * even shares of the expected output; an oversized segment travels alone and is never
 * cut. Chunks are listed target group by target group, so the first group's calls have
 * written a chunk's prefix to the provider's cache before the next group's read it.
 */
import type { CallBudget, EngineLanguage, EngineSegment } from '../engines/engine.js';

/** Expected output tokens per source token and target (docs/engine-notes.md b6 seeds 1.2–2.5; 1.5 is a middle). */
export const OUTPUT_EXPANSION = 1.5;
/** Output tokens per segment and target beyond its text: quotes and comma in the answer's array (measured 1.1–1.9). */
const SEGMENT_ENVELOPE_TOKENS = 2;
/** A split call must write at least this much; below it, the fixed block it repeats costs more than the wait it saves. */
export const MIN_CALL_OUTPUT_TOKENS = 150;
/** A chunk cut for latency keeps at least this much source, so the model still sees context. */
export const MIN_CHUNK_SOURCE_TOKENS = 80;
/** A call's time to first token, in output tokens written meanwhile (400 ms at 80 tokens/s is 32). */
const CALL_LATENCY_TOKENS = 40;
/** The input every call repeats: system prompt, answer schema, header lines (605 with prompt mt-2026-11-v4). */
export const FIXED_INPUT_TOKENS = 600;
/** Of the provider's output limit, the share a chunk may be planned to fill (an answer cut at the limit costs a call). */
const HARD_LIMIT_SHARE = 0.75;
/** Plans within this share of the fastest count as fast as it; the cheapest of them wins. */
const TIME_TOLERANCE = 0.15;

export interface Chunk {
  readonly segments: readonly EngineSegment[];
  readonly targets: readonly EngineLanguage[];
}

/** What a plan is expected to cost, for logs and benches. */
export interface PlanEstimate {
  readonly calls: number;
  /** Rounds of calls on the parallel slots, each as long as the largest call. */
  readonly rounds: number;
  /** Expected output tokens of the largest call. */
  readonly largestCallOutput: number;
  /** Expected input tokens over all calls (fixed block plus source). */
  readonly inputTokens: number;
}

export function planChunks(
  segments: readonly EngineSegment[],
  targets: readonly EngineLanguage[],
  budget: CallBudget,
  /** Source tokens of a segment (the document's counts, or the process's tokenizer). */
  tokensOf: (segment: EngineSegment) => number,
): Chunk[] {
  if (segments.length === 0 || targets.length === 0) return [];
  const sizes = segments.map(tokensOf);
  const shape = chooseShape(sizes, targets.length, budget);
  const chunks: Chunk[] = [];
  const groups = splitEvenly(targets, shape.groups);
  for (const group of groups) {
    // The budget holds on average through the chunk count; a chunk is cut again only past the hard limit.
    const limit = Math.max(1, Math.floor((HARD_LIMIT_SHARE * budget.maxOutputTokens) / group.length));
    const count = chunksOfGroup(shape.chunks, group.length, groups[0]!.length);
    for (const range of cutSegments(sizes, count, limit, budget.maxInputTokens)) {
      chunks.push({ segments: segments.slice(range[0], range[1]), targets: group });
    }
  }
  return chunks;
}

/** The estimate for a plan as planChunks would make it (same inputs). */
export function estimatePlan(
  segments: readonly EngineSegment[],
  targetCount: number,
  budget: CallBudget,
  tokensOf: (segment: EngineSegment) => number,
): PlanEstimate {
  const shape = chooseShape(segments.map(tokensOf), targetCount, budget);
  return shape.estimate;
}

interface Shape {
  /** Target groups, as even as the count allows. */
  readonly groups: number;
  /** Chunks per target group of the largest size (smaller groups get proportionally fewer). */
  readonly chunks: number;
  readonly estimate: PlanEstimate;
}

/** The output tokens a segment of `sourceTokens` is expected to take in one target's answer. */
export function expectedOutputTokens(sourceTokens: number): number {
  return expectedOutput(sourceTokens);
}

function expectedOutput(sourceTokens: number): number {
  return sourceTokens * OUTPUT_EXPANSION + SEGMENT_ENVELOPE_TOKENS;
}

/** The output one call is planned to write: the latency budget, within a share of the hard limit. */
function outputBudget(budget: CallBudget): number {
  const hard = HARD_LIMIT_SHARE * budget.maxOutputTokens;
  return Math.max(1, Math.min(budget.callOutputTokens ?? hard, hard));
}

/** Chooses target groups × chunks per group by expected time, then by input tokens. */
function chooseShape(sizes: readonly number[], targetCount: number, budget: CallBudget): Shape {
  const source = sizes.reduce((sum, size) => sum + size, 0);
  const perTarget = sizes.reduce((sum, size) => sum + expectedOutput(size), 0);
  const largestSegment = sizes.reduce((most, size) => Math.max(most, expectedOutput(size)), 0);
  // Chunks end between segments, so a chunk's share of the output is off by up to about one segment.
  const typicalSegment = perTarget / sizes.length;
  const callBudget = outputBudget(budget);
  const slots = Math.max(1, budget.parallelCalls ?? 1);
  const chunksForContext = Math.max(1, Math.min(sizes.length, Math.floor(source / MIN_CHUNK_SOURCE_TOKENS)));
  const chunksForInput = Math.min(sizes.length, Math.ceil(source / budget.maxInputTokens));

  const total = targetCount * perTarget;
  const candidates: (Shape & { time: number })[] = [];
  for (let groups = 1; groups <= targetCount; groups++) {
    const groupSize = Math.ceil(targetCount / groups);
    // Only the group counts that shrink the largest group are distinct plans.
    if (groups > 1 && groupSize === Math.ceil(targetCount / (groups - 1))) continue;
    const groupOutput = groupSize * perTarget;
    // One segment for all the group's targets must fit the budget, or the group is too big.
    if (groupSize > 1 && groupSize * largestSegment > callBudget) continue;
    const slack = groupSize * typicalSegment;
    const byBudget = groupOutput <= callBudget ? 1 : Math.ceil(groupOutput / Math.max(1, callBudget - slack));
    const fewest = Math.max(1, chunksForInput, byBudget);
    if (fewest > sizes.length) continue;
    if (groupSize > 1 && fewest > 1) {
      // Chunks of fewer than about three segments, or thinner than context needs: smaller
      // target groups instead, unless the input limit cuts them that thin anyway.
      if (4 * slack > callBudget || fewest > Math.max(chunksForContext, chunksForInput)) continue;
    }
    const most = Math.max(fewest, chunksForContext);
    const sizesOfGroups = splitEvenly(Array.from({ length: targetCount }), groups).map((group) => group.length);
    for (let chunks = fewest; chunks <= most; chunks++) {
      const calls = sizesOfGroups.reduce((sum, size) => sum + chunksOfGroup(chunks, size, groupSize), 0);
      const rounds = Math.ceil(calls / slots);
      const largestCallOutput = chunks === 1 ? groupOutput : Math.max(groupOutput / chunks + slack, groupSize * largestSegment);
      // Slots take the next call as soon as one ends: rounds of average calls, and the
      // largest call's excess once, at the end (exact for one round and for equal calls).
      const averageCallOutput = total / calls;
      const time = rounds * (CALL_LATENCY_TOKENS + averageCallOutput) + (largestCallOutput - averageCallOutput);
      const inputTokens = calls * FIXED_INPUT_TOKENS + groups * source;
      candidates.push({ groups, chunks, time, estimate: { calls, rounds, largestCallOutput, inputTokens } });
      if (total / calls < MIN_CALL_OUTPUT_TOKENS) break; // more chunks only make calls smaller still
      if (rounds > 1 && calls % slots === 0) break; // more chunks only add rounds
    }
  }
  if (candidates.length === 0) {
    // Even one target per call cannot keep a segment under the budget: one segment per call.
    const calls = targetCount * sizes.length;
    return {
      groups: targetCount,
      chunks: sizes.length,
      estimate: {
        calls,
        rounds: Math.ceil(calls / slots),
        largestCallOutput: largestSegment,
        inputTokens: calls * FIXED_INPUT_TOKENS + targetCount * source,
      },
    };
  }
  // A split made for speed must leave every call enough to write; the fewest calls the
  // limits allow are always a choice.
  const fewestCalls = Math.min(...candidates.map((candidate) => candidate.estimate.calls));
  const allowed = candidates.filter(
    (candidate) => candidate.estimate.calls === fewestCalls || total / candidate.estimate.calls >= MIN_CALL_OUTPUT_TOKENS,
  );
  const best = allowed.reduce((fastest, candidate) => (candidate.time < fastest.time ? candidate : fastest));
  const fastEnough = best.time * (1 + TIME_TOLERANCE);
  let chosen = best;
  for (const candidate of allowed) {
    if (candidate.time <= fastEnough && candidate.estimate.inputTokens < chosen.estimate.inputTokens) chosen = candidate;
  }
  return { groups: chosen.groups, chunks: chosen.chunks, estimate: chosen.estimate };
}

/**
 * `count` runs of segments with even shares of the expected output, cut between
 * segments; a run that would still exceed `outputLimit` per target or `maxInput` source
 * tokens is cut again greedily. Returns [start, end) index pairs.
 */
function cutSegments(sizes: readonly number[], count: number, outputLimit: number, maxInput: number): [number, number][] {
  const outputs = sizes.map(expectedOutput);
  const total = outputs.reduce((sum, output) => sum + output, 0);
  const ranges: [number, number][] = [];
  let start = 0;
  let before = 0;
  for (let part = 1; part <= count && start < sizes.length; part++) {
    const goal = (total * part) / count;
    let end = start;
    let sum = before;
    // Take segments while the run ends nearer its share of the output than one segment earlier.
    while (end < sizes.length && (end === start || Math.abs(sum + outputs[end]! - goal) <= Math.abs(sum - goal))) {
      sum += outputs[end]!;
      end++;
    }
    if (part === count) {
      while (end < sizes.length) sum += outputs[end++]!;
    }
    ranges.push([start, end]);
    start = end;
    before = sum;
  }
  return ranges.flatMap(([from, to]) => recut(sizes, outputs, from, to, outputLimit, maxInput));
}

function recut(
  sizes: readonly number[],
  outputs: readonly number[],
  from: number,
  to: number,
  outputLimit: number,
  maxInput: number,
): [number, number][] {
  const ranges: [number, number][] = [];
  let start = from;
  let output = 0;
  let input = 0;
  for (let index = from; index < to; index++) {
    if (index > start && (output + outputs[index]! > outputLimit || input + sizes[index]! > maxInput)) {
      ranges.push([start, index]);
      start = index;
      output = 0;
      input = 0;
    }
    output += outputs[index]!;
    input += sizes[index]!;
  }
  ranges.push([start, to]);
  return ranges;
}

/** A smaller group writes less per chunk, so it gets proportionally fewer chunks of the same size. */
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
