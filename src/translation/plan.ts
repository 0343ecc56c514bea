/**
 * Plans a document's unique segments into chunks, each one engine call for a group of
 * targets, that fit the engine's per-call budget: source tokens ≤ maxInputTokens, and
 * the expected output (source × targets × expansion) ≤ maxOutputTokens. A small
 * document is exactly one chunk with every target, so one model call.
 */
import type { CallBudget, EngineLanguage, EngineSegment } from '../engines/engine.js';
import { countTokens } from '../tokens.js';

/** Expected output tokens per source token and target (ENGINE-NOTES b6 seeds 1.2–2.5; 1.5 is a middle). */
export const OUTPUT_EXPANSION = 1.5;
/** Below this many source tokens a call carries too little context: split targets instead. */
const MIN_TOKENS_PER_CALL = 200;

export interface Chunk {
  readonly segments: readonly EngineSegment[];
  readonly targets: readonly EngineLanguage[];
}

export function planChunks(
  segments: readonly EngineSegment[],
  targets: readonly EngineLanguage[],
  budget: CallBudget,
  /** Precomputed source tokens of a segment; default: counted here with o200k. */
  tokensOf: (segment: EngineSegment) => number = (segment) => countTokens(segment.text),
): Chunk[] {
  if (segments.length === 0 || targets.length === 0) return [];
  const targetGroups = groupTargets(targets, budget);
  const chunks: Chunk[] = [];
  for (const group of targetGroups) {
    const limit = sourceTokensPerCall(group.length, budget);
    let current: EngineSegment[] = [];
    let currentTokens = 0;
    for (const segment of segments) {
      const tokens = tokensOf(segment);
      // An oversized segment travels alone: it is never cut, so its tokens stay whole.
      if (current.length > 0 && currentTokens + tokens > limit) {
        chunks.push({ segments: current, targets: group });
        current = [];
        currentTokens = 0;
      }
      current.push(segment);
      currentTokens += tokens;
    }
    if (current.length > 0) chunks.push({ segments: current, targets: group });
  }
  return chunks;
}

function sourceTokensPerCall(targetCount: number, budget: CallBudget): number {
  return Math.max(1, Math.min(budget.maxInputTokens, Math.floor(budget.maxOutputTokens / (targetCount * OUTPUT_EXPANSION))));
}

/** All targets together when the output budget allows a useful chunk size; else the fewest equal groups that do. */
function groupTargets(targets: readonly EngineLanguage[], budget: CallBudget): EngineLanguage[][] {
  const floor = Math.min(MIN_TOKENS_PER_CALL, budget.maxInputTokens);
  const perGroup = Math.max(1, Math.floor(budget.maxOutputTokens / (floor * OUTPUT_EXPANSION)));
  const groupCount = Math.ceil(targets.length / perGroup);
  const size = Math.ceil(targets.length / groupCount);
  const groups: EngineLanguage[][] = [];
  for (let i = 0; i < targets.length; i += size) groups.push(targets.slice(i, i + size));
  return groups;
}
