/**
 * What a /translate request would cost, without making it (POST /v1/translate/estimate):
 * the same validation, glossary lookup and memory lookup, then the same call plan for
 * what memory does not hold — and no model call, no charge, no reservation. Tokens are
 * the plan's expectation: each call's fixed prompt (model engines only; the pseudo
 * engine counts segment text alone) and source, and OUTPUT_EXPANSION × source per
 * target for the answer (plan.ts). `precheck` is the free tier's rule applied to the
 * request's spec estimate (usage/precheck-view.ts).
 */
import type { User } from '../accounts/users.js';
import type { EngineSegment } from '../engines/engine.js';
import { Turns } from '../event-loop/turns.js';
import { estimateTokens } from '../usage/estimate.js';
import { viewPreCheck, type PreCheckView } from '../usage/precheck-view.js';
import { resolveSource } from './detect-source.js';
import { FIXED_INPUT_TOKENS, expectedOutputTokens } from './plan.js';
import type { TranslateInput } from './requests.js';
import { PairBuffer, targetOf, uniqueOf, type PairList } from './pairs.js';
import { distinctSegments, lookupByTarget, memoryKeys, planCalls, storedOf } from './segment-work.js';
import { checkedEngine, type TranslationServiceDeps } from './service.js';
import { prepareDocument } from './translate-document.js';
import { workContext } from './work-context.js';

export interface RequestEstimate {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedSegments: number;
  readonly modelCalls: number;
  readonly precheck: PreCheckView;
}

export async function estimateForUser(deps: TranslationServiceDeps, user: User, input: TranslateInput): Promise<RequestEstimate> {
  const context = await workContext(deps, user.id, input);
  const prepared = await prepareDocument(input.content, input.format, deps.documents);
  try {
    const engine = checkedEngine(deps, user, input);
    const engineTargets = input.targets.map((target) => target.language);
    const { unique, pairs } = await distinctSegments([prepared], context.glossary, engineTargets);
    let pending: PairList = pairs;
    let cachedSegments = 0;
    // What /translate would use: in the memory keys, and for cutting a string at its sentences.
    const { source } = await resolveSource(input.source, [prepared], deps.detector);
    const { memory } = context;
    if (memory && pending.length > 0) {
      const keys = await memoryKeys(memory, unique, engineTargets, { engine, ...(source ? { source } : {}), ...(input.instructions ? { instructions: input.instructions } : {}), ...context });
      const stored = await lookupByTarget(memory, keys);
      const missed = new PairBuffer(pending.length);
      for (const pair of pending) if (!storedOf(stored, targetOf(pair)).has(keys[targetOf(pair)]![uniqueOf(pair)]!)) missed.push(pair);
      pending = missed.list();
      cachedSegments = pairs.length - pending.length;
    }
    const fixed = engine.id === 'pseudo' ? 0 : FIXED_INPUT_TOKENS;
    // Counted taking turns: a segment the document worker did not count may be 2 MB long.
    const tokens = new Map<EngineSegment, number>();
    const turns = new Turns();
    for (const entry of unique) {
      tokens.set(entry.segment, entry.tokens ?? (await deps.tokenizer.countTokensYielding(entry.segment.text)));
      if (turns.due()) await turns.yield();
    }
    let inputTokens = 0;
    let outputTokens = 0;
    const calls = await planCalls(pending, unique, engineTargets, engine, deps.tokenizer, { source: source?.code });
    // A part of a segment (a plural message's branches, a string's sentences) is a text of its own.
    const tokensOf = (segment: EngineSegment): number => tokens.get(segment) ?? deps.tokenizer.countTokens(segment.text);
    for (const { chunk } of calls) {
      const sourceTokens = chunk.segments.reduce((sum, segment) => sum + tokensOf(segment), 0);
      const output = chunk.segments.reduce((sum, segment) => sum + expectedOutputTokens(tokensOf(segment)), 0);
      inputTokens += fixed + sourceTokens;
      outputTokens += Math.round(output * chunk.targets.length);
    }
    const precheck = await viewPreCheck(deps, user, estimateTokens(input.content.length, input.targets.length));
    return { inputTokens, outputTokens, cachedSegments, modelCalls: calls.length, precheck };
  } finally {
    prepared.release();
  }
}
