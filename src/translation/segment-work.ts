/**
 * The distinct segments of one piece of work (a document, a batch, a job) into every
 * target: do-not-translate terms protected, translation memory looked up, identical
 * segments in flight elsewhere in this process awaited, and only the rest planned into
 * model calls (plan.ts) — so a segment found in memory is never sent and costs nothing.
 * Every validated answer is saved to memory as its call returns (docs/memory.md).
 * Loops over segments or (target, segment) pairs take turns with the rest of the process
 * (event-loop/turns.ts): a document may have 200,000 segments.
 */
import {
  EngineError,
  type CallBudget,
  type EngineLanguage,
  type EngineSegment,
  type GlossaryTerm,
  type TranslationEngine,
} from '../engines/engine.js';
import { PROMPT_VERSION } from '../engines/prompt.js';
import type { Format } from '../formats/format.js';
import { pluralSignature, shapePlurals } from '../formats/index.js';
import type { AppliedGlossary } from '../glossaries/glossary.js';
import type { Flight, MemoryEntry, SegmentMemory } from '../memory/translation-memory.js';
import { runInTurns } from '../event-loop/run-in-turns.js';
import { Turns } from '../event-loop/turns.js';
import { markProblem } from '../segments/segment.js';
import { protectTerms, TermMatcher } from '../segments/terms.js';
import type { Tokenizer } from '../tokens.js';
import { expectedCallTime, expectedOutputTokens, expectedPlanTime, planChunksInTurns, TIME_TOLERANCE, type Chunk } from './plan.js';
import { joinParts, partOf, pluralParts } from './plural-parts.js';
import { joinSentences, sentenceParts, sentenceSpans, type SentenceSpan } from './sentence-parts.js';
import { PairBuffer, pairOf, targetOf, uniqueOf, type PairList } from './pairs.js';
import type { PreparedDocument } from './prepared-document.js';
import { runLimited } from './run-limited.js';
import { untilAborted } from '../engines/provider-limit.js';
import type { TranslateOptions, WorkTally } from './translate-options.js';

/** Texts longer than this are counted taking turns (Tokenizer#countTokensYielding); shorter ones count in well under a turn. */
const LONG_TEXT_CHARS = 16 * 1024;

export interface SegmentWork extends WorkTally {
  /** document → target (in request order) → translation of each segment, aligned with its segments. */
  readonly translations: string[][][];
}

export interface UniqueSegment {
  /**
   * As the engine sees it: do-not-translate terms are extra `<xN/>` marks, and a segment
   * with counted messages is in the plural shape of the targets it is for
   * (formats' `shapePlurals`), its branches named for the model.
   */
  readonly segment: EngineSegment;
  /** What the plural shape depends on (`pluralSignature`), for the memory key; '' without counted messages. */
  readonly plurals: string;
  readonly format: Format;
  /** o200k count of the text when a document worker made it (unmasked text only). */
  readonly tokens: number | undefined;
  /** Puts the do-not-translate terms back; absent when none were protected. */
  readonly restore?: (translated: string) => string;
  /** Entries of the glossary whose term occurs in the segment. */
  readonly terms: readonly GlossaryTerm[];
  /** The `<gN>` pairs of `segment` that are plural branches (source's and added), when it has counted messages: what plural-parts.ts may cut. */
  readonly branchPairs?: ReadonlySet<number>;
}

export type { Pair, PairList } from './pairs.js';

/**
 * Told the moment every segment of one target is translated (the planner finishes targets
 * at different times): the target's index and, per document, its segments' translations.
 */
export type TargetTranslated = (target: number, translations: string[][]) => void;

/**
 * Translates the distinct segments of `documents` (planned together per format) into every
 * target; `onTargetTranslated`, if given, hears of each target as soon as it is whole.
 */
export async function translateSegments(
  documents: readonly PreparedDocument[],
  options: TranslateOptions,
  onTargetTranslated?: TargetTranslated,
): Promise<SegmentWork> {
  const { targets, glossary, memory } = options;
  // A caller that hears of targets one by one gets its first target soonest (planCalls).
  const firstTargetEarly = onTargetTranslated !== undefined && targets.length > 1;
  const engineTargets: EngineLanguage[] = targets.map((t) => t.language);
  const turns = new Turns();
  // Each awaited only when it took turns: awaiting a value makes a promise too (run-in-turns.ts).
  const found = distinctSegments(documents, glossary, engineTargets, turns);
  const { unique, positions, pairs, pairsOfTarget } = found instanceof Promise ? await found : found;
  const keyed = memory ? memoryKeys(memory, unique, engineTargets, options, turns) : undefined;
  const keys = keyed instanceof Promise ? await keyed : keyed;
  // A whole target is handed on in order of completion; its rows are built taking turns.
  let handedOn: Promise<void> | undefined;
  // Once the work has failed, a target still being put together is not handed on.
  let failed = false;
  const done = new TargetRows(
    unique.length,
    pairsOfTarget,
    onTargetTranslated &&
      ((target, row) => {
        const next = (handedOn ?? Promise.resolve()).then(async () => {
          const texts = await runInTurns(textsOfTarget(positions[target]!, row, unique, turns), turns);
          if (!failed) onTargetTranslated(target, texts);
        });
        // Awaited before returning; a failure meanwhile must not count as unhandled.
        next.catch(() => {});
        handedOn = next;
      }),
  );

  const tally = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, calls: 0, cached: 0, misses: 0 };
  let pending: PairList = pairs;
  if (memory && keys && pending.length > 0) {
    const stored = await lookupByTarget(memory, keys);
    const missed = new PairBuffer(pending.length);
    // Loops that may await or yield index their arrays: a for…of there allocated its
    // iterator and its steps on every request (decision 0121).
    for (let p = 0; p < pending.length; p++) {
      const pair = pending[p]!;
      const hit = storedOf(stored, targetOf(pair)).get(keys[targetOf(pair)]![uniqueOf(pair)]!);
      if (hit === undefined) missed.push(pair);
      else {
        done.fill(targetOf(pair), uniqueOf(pair), hit);
        tally.cached++;
      }
      if (turns.due()) await turns.yield();
    }
    pending = missed.list();
  }

  // Answered wholly from memory (the usual repeat): no cancel signal, no listeners.
  try {
    if (pending.length > 0) await translatePending(pending, { unique, engineTargets, done, options, tally, keys, memory, turns, firstTargetEarly });
  } catch (error) {
    failed = true;
    throw error;
  }
  if (handedOn) await handedOn;

  const byTarget: string[][][] = [];
  for (let target = 0; target < done.rows.length; target++) {
    const texts = runInTurns(textsOfTarget(positions[target]!, done.rows[target]!, unique, turns), turns);
    byTarget.push(texts instanceof Promise ? await texts : texts);
  }
  return {
    translations: documents.map((_, document) => byTarget.map((target) => target[document]!)),
    usage: {
      inputTokens: tally.inputTokens,
      outputTokens: tally.outputTokens,
      ...(tally.cachedInputTokens > 0 ? { cachedInputTokens: tally.cachedInputTokens } : {}),
      ...(tally.cacheWriteTokens > 0 ? { cacheWriteTokens: tally.cacheWriteTokens } : {}),
    },
    calls: tally.calls,
    cachedSegments: tally.cached,
    glossaryMisses: tally.misses,
  };
}

/** Up to this many keys, a request's keys are looked up together (lookupByTarget). */
const ONE_LOOKUP_UP_TO = 65_536;

/** What memory holds of a request's keys: one map for every target, or one a target (storedOf). */
export type StoredByTarget = ReadonlyMap<string, string> | readonly ReadonlyMap<string, string>[];

/**
 * Memory's answer for the keys: one lookup of every key for most requests (no promise of
 * its own: the lookup's), else one a target, in turn. An array of every key — 2,000,000
 * for 200,000 segments into 10 targets — is allocated in one long step (pairs.ts).
 */
export function lookupByTarget(memory: SegmentMemory, keys: readonly (readonly string[])[]): Promise<StoredByTarget> {
  let count = 0;
  for (let t = 0; t < keys.length; t++) count += keys[t]!.length;
  if (count <= ONE_LOOKUP_UP_TO) return memory.lookup(keys.length === 1 ? keys[0]! : keys.flat());
  return lookupEachTarget(memory, keys);
}

async function lookupEachTarget(memory: SegmentMemory, keys: readonly (readonly string[])[]): Promise<ReadonlyMap<string, string>[]> {
  const stored: ReadonlyMap<string, string>[] = [];
  for (let t = 0; t < keys.length; t++) stored.push(await memory.lookup(keys[t]!));
  return stored;
}

/** The map that holds target `target`'s keys. */
export function storedOf(stored: StoredByTarget, target: number): ReadonlyMap<string, string> {
  return stored instanceof Map ? stored : (stored as readonly ReadonlyMap<string, string>[])[target]!;
}

/**
 * The pairs memory did not answer: translated by this request, or awaited where another
 * request of the same user is translating the same key in this process.
 */
async function translatePending(
  initial: PairList,
  work: Omit<CallContext, 'cancel' | 'flight' | 'keysToSave'> & { readonly memory: SegmentMemory | undefined },
): Promise<void> {
  const { done, options, tally, keys, memory } = work;
  const signal = options.cancellation?.signal;
  let pending = initial;
  // One failed call fails the request: cancel the calls still running or waiting.
  const cancel = new AbortController();
  const onAbort = (): void => cancel.abort(signal!.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) cancel.abort(signal.reason);
  // The keys this request leads, however many, and its waits on other requests' (decision 0125).
  const flight = keys ? memory?.flight() : undefined;
  try {
    // Each round sends what nobody else is translating and waits for what somebody is;
    // a pair whose leader failed comes round again (and is led by this request then).
    while (pending.length > 0) {
      const mine = new PairBuffer(pending.length);
      const waits: Promise<void>[] = [];
      for (let p = 0; p < pending.length; p++) {
        if (work.turns.due()) await work.turns.yield();
        const pair = pending[p]!;
        const claim = flight?.claim(keys![targetOf(pair)]![uniqueOf(pair)]!) ?? true;
        if (claim === true) mine.push(pair);
        else {
          waits.push(
            untilAborted(claim, cancel.signal).then((translation) => {
              if (translation === undefined) return;
              done.fill(targetOf(pair), uniqueOf(pair), translation);
              tally.cached++;
            }),
          );
        }
      }
      const own = callModels(mine.list(), { cancel, flight, keysToSave: initial.length, ...work });
      await Promise.all([own, ...waits]).catch((error: unknown) => {
        cancel.abort(error);
        throw error;
      });
      const left = new PairBuffer(pending.length);
      for (let p = 0; p < pending.length; p++) {
        const pair = pending[p]!;
        if (!done.has(targetOf(pair), uniqueOf(pair))) left.push(pair);
        if (work.turns.due()) await work.turns.yield();
      }
      pending = left.list();
    }
    // Everything arrived, but nobody wants it now: the request fails uncharged (what was
    // translated is in memory for the retry).
    signal?.throwIfAborted();
  } catch (error) {
    // The caller's abort wins over the errors it caused in the calls it cancelled.
    signal?.throwIfAborted();
    throw error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // Followers of a key this request led but did not translate translate it themselves;
    // a key it did not lead, or settled already, is left alone. Taking turns: 2,000,000
    // pairs for 200,000 segments into 10 targets.
    if (flight) {
      for (let p = 0; p < initial.length; p++) {
        const pair = initial[p]!;
        flight.settle(keys![targetOf(pair)]![uniqueOf(pair)]!, undefined);
        if (work.turns.due()) await work.turns.yield();
      }
    }
  }
}

/**
 * Each target's translations of the unique segments as they arrive, and how many are still
 * missing: a target whose last segment arrives is reported at once (streaming answers).
 */
class TargetRows {
  readonly rows: (string | undefined)[][];
  readonly #missing: number[];

  constructor(
    segments: number,
    /** Each target's pairs: a target needs only its own, as another target's plural shapes are not its segments. */
    pairsOfTarget: readonly number[],
    private readonly onWhole: ((target: number, row: readonly (string | undefined)[]) => void) | undefined,
  ) {
    this.rows = pairsOfTarget.map(() => new Array<string | undefined>(segments));
    this.#missing = pairsOfTarget.slice();
    // A target without segments is whole before any work.
    for (let target = 0; target < pairsOfTarget.length; target++) if (this.#missing[target] === 0) this.onWhole?.(target, this.rows[target]!);
  }

  has(target: number, unique: number): boolean {
    return this.rows[target]![unique] !== undefined;
  }

  fill(target: number, unique: number, text: string): void {
    const row = this.rows[target]!;
    if (row[unique] !== undefined) return;
    row[unique] = text;
    if (--this.#missing[target]! === 0) this.onWhole?.(target, row);
  }
}

/**
 * One target's translations in document order (document → segment), do-not-translate
 * terms put back: for the target handed on as it is whole and for the answer.
 */
function* textsOfTarget(
  positions: readonly (readonly number[])[],
  row: readonly (string | undefined)[],
  unique: readonly UniqueSegment[],
  turns: Turns,
): Generator<void, string[][], void> {
  const byDocument: string[][] = [];
  for (let d = 0; d < positions.length; d++) {
    const indexes = positions[d]!;
    const texts = new Array<string>(indexes.length);
    for (let i = 0; i < indexes.length; i++) {
      const index = indexes[i]!;
      const restore = unique[index]!.restore;
      texts[i] = restore ? restore(row[index]!) : row[index]!;
      if (turns.due()) yield;
    }
    byDocument.push(texts);
  }
  return byDocument;
}

/** Each unique segment's memory key per target: target → unique segment → key; a promise only if it took turns. */
export function memoryKeys(
  memory: Pick<SegmentMemory, 'keyOf'>,
  unique: readonly UniqueSegment[],
  engineTargets: readonly EngineLanguage[],
  options: Pick<TranslateOptions, 'engine' | 'source' | 'glossary' | 'instructions'>,
  turns = new Turns(),
): string[][] | Promise<string[][]> {
  return runInTurns(keySteps(memory, unique, engineTargets, options, turns), turns);
}

function* keySteps(
  memory: Pick<SegmentMemory, 'keyOf'>,
  unique: readonly UniqueSegment[],
  engineTargets: readonly EngineLanguage[],
  options: Pick<TranslateOptions, 'engine' | 'source' | 'glossary' | 'instructions'>,
  turns: Turns,
): Generator<void, string[][], void> {
  const { glossary, instructions } = options;
  const keys: string[][] = [];
  const keysInWork = unique.length * engineTargets.length;
  for (let t = 0; t < engineTargets.length; t++) {
    const target = engineTargets[t]!;
    const ofTarget = new Array<string>(unique.length);
    // The parts but the text are joined once for a run of segments that share them (most
    // documents: every segment), not once per key.
    let shared: UniqueSegment | undefined;
    let keyOf: (text: string) => string = () => '';
    for (let u = 0; u < unique.length; u++) {
      const entry = unique[u]!;
      if (shared === undefined || !sameKeyHead(shared, entry)) {
        shared = entry;
        keyOf = memory.keyOf({
          format: entry.format,
          singleLine: entry.segment.singleLine === true,
          source: options.source?.code,
          target: target.code,
          engine: options.engine.id,
          promptVersion: PROMPT_VERSION,
          glossary: glossary ? { id: glossary.id, version: glossary.version } : undefined,
          formality: instructions?.formality,
          context: instructions?.context,
          // '' (no counted messages) leaves the key as it was, like an absent member.
          plurals: entry.plurals,
          note: entry.segment.note,
        }, keysInWork);
      }
      ofTarget[u] = keyOf(entry.segment.text);
      if (turns.due()) yield;
    }
    keys.push(ofTarget);
  }
  return keys;
}

/** Whether two segments' memory keys differ only by their text. */
function sameKeyHead(a: UniqueSegment, b: UniqueSegment): boolean {
  return a.format === b.format && (a.segment.singleLine === true) === (b.segment.singleLine === true) && a.plurals === b.plurals && a.segment.note === b.segment.note;
}

export interface DistinctSegments {
  readonly unique: UniqueSegment[];
  /** target → document → segment → index into `unique`. Targets share one array when no segment has counted messages. */
  readonly positions: number[][][];
  /** Every (target, unique segment) pair to translate: all of them, but for the plural shapes of other targets. */
  readonly pairs: PairList;
  /** How many of `pairs` each target has (counted as they are made: 2,000,000 pairs counted again were one long turn). */
  readonly pairsOfTarget: number[];
}

/**
 * Identical segments are translated once: by format, line rule and text. A segment with
 * counted messages is one unique segment per plural shape its targets need (Russian and
 * Ukrainian share one; German another), each translated only into its own targets.
 * A promise only if it took turns.
 */
export function distinctSegments(
  documents: readonly PreparedDocument[],
  glossary: AppliedGlossary | undefined,
  targets: readonly EngineLanguage[],
  turns = new Turns(),
): DistinctSegments | Promise<DistinctSegments> {
  return runInTurns(distinctSteps(documents, glossary, targets, turns), turns);
}

function* distinctSteps(
  documents: readonly PreparedDocument[],
  glossary: AppliedGlossary | undefined,
  targets: readonly EngineLanguage[],
  turns: Turns,
): Generator<void, DistinctSegments, void> {
  const uniqueIndex = new Map<string, number>();
  const unique: UniqueSegment[] = [];
  // Built once per request: a glossary may hold thousands of terms (segments/terms.ts).
  const protectedTerms = glossary ? new TermMatcher(glossary.doNotTranslate, { ignoreCase: false }) : undefined;
  const entryTerms = glossary ? new TermMatcher(glossary.entries.map((entry) => entry.term), { ignoreCase: true }) : undefined;
  const add = (
    document: PreparedDocument,
    i: number,
    text: string,
    plurals: string,
    branches: EngineSegment['pluralBranches'],
    branchPairs?: ReadonlySet<number>,
  ): number => {
    const segment = document.segments[i]!;
    const key = `${document.format}\u0000${segment.singleLine ? 1 : 0}\u0000${segment.note ?? ''}\u0000${plurals}\u0000${text}`;
    let index = uniqueIndex.get(key);
    if (index === undefined) {
      index = unique.length;
      uniqueIndex.set(key, index);
      const guarded = protectedTerms && !protectedTerms.empty ? protectTerms(text, protectedTerms) : undefined;
      const masked = guarded?.text ?? text;
      const found = entryTerms && !entryTerms.empty ? new Set(entryTerms.find(masked).map((m) => m.term)) : undefined;
      const engineSegment: EngineSegment = { id: String(index), text: masked };
      if (segment.singleLine) (engineSegment as { singleLine?: boolean }).singleLine = true;
      if (segment.note) (engineSegment as { note?: string }).note = segment.note;
      if (branches !== undefined) (engineSegment as { pluralBranches?: EngineSegment['pluralBranches'] }).pluralBranches = branches;
      unique.push({
        segment: engineSegment,
        plurals,
        format: document.format,
        // Counts made in a document worker spare the loop one o200k pass over the document.
        tokens: guarded || text !== segment.text ? undefined : document.tokenCounts?.[i],
        ...(guarded ? { restore: guarded.restore } : {}),
        terms: found ? [...found].sort((a, b) => a - b).map((term) => glossary!.entries[term]!) : [],
        ...(branchPairs ? { branchPairs } : {}),
      });
    }
    return index;
  };
  const shared: number[][] = [];
  for (let d = 0; d < documents.length; d++) {
    const document = documents[d]!;
    const { segments } = document;
    const indexes = new Array<number>(segments.length);
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i]!;
      indexes[i] = segment.plurals === undefined ? add(document, i, segment.text, '', undefined) : -1;
      if (turns.due()) yield;
    }
    shared.push(indexes);
  }
  const counted = shared.some((indexes) => indexes.includes(-1));
  const positions = targets.map((target) =>
    !counted
      ? shared
      : shared.map((indexes, d) =>
          indexes.map((index, i) => {
            if (index !== -1) return index;
            const segment = documents[d]!.segments[i]!;
            const shape = shapePlurals(segment, target.code)!;
            // The branches added for the target (the model cannot tell a copy of `other`
            // written for `few` from `other` itself), in the order the model reads them.
            const branches = [...shape.branches]
              .filter(([pair]) => shape.aliases.get(`<g${pair}>`)?.selector !== undefined)
              .map(([pair, { selector, type }]) => ({ pair, selector, type, at: shape.text.indexOf(`<g${pair}>`) }))
              .filter((branch) => branch.at >= 0)
              .sort((a, b) => a.at - b.at)
              .map(({ pair, selector, type }) => ({ pair, selector, type }));
            const pairs = new Set([...shape.branches.keys()].filter((pair) => shape.text.includes(`<g${pair}>`)));
            return add(documents[d]!, i, shape.text, pluralSignature(segment.plurals, target.code), branches.length > 0 ? branches : undefined, pairs);
          }),
        ),
  );
  // At most every unique segment for every target; fewer where plural shapes differ.
  const pairs = new PairBuffer(targets.length * unique.length);
  const pairsOfTarget: number[] = [];
  for (let target = 0; target < targets.length; target++) {
    const needed = counted ? new Uint8Array(unique.length) : undefined;
    if (needed) for (const indexes of positions[target]!) for (const index of indexes) needed[index] = 1;
    const before = pairs.length;
    for (let u = 0; u < unique.length; u++) {
      if (!needed || needed[u]) pairs.push(pairOf(target, u));
      if (turns.due()) yield;
    }
    pairsOfTarget.push(pairs.length - before);
  }
  return { unique, positions, pairs: pairs.list(), pairsOfTarget };
}

interface CallContext {
  readonly unique: readonly UniqueSegment[];
  readonly engineTargets: readonly EngineLanguage[];
  readonly done: TargetRows;
  readonly options: TranslateOptions;
  readonly cancel: AbortController;
  readonly tally: { inputTokens: number; outputTokens: number; cachedInputTokens: number; cacheWriteTokens: number; calls: number; cached: number; misses: number };
  readonly keys: string[][] | undefined;
  /** Pairs this request may save to memory in all (a large request does not fill the recent entries; memory/). */
  readonly keysToSave: number;
  /** What this request leads (single-flight.ts): each key settled with its validated translation. */
  readonly flight: Flight | undefined;
  readonly turns: Turns;
  /** The caller streams targets as they finish: plan the first one ahead of the rest. */
  readonly firstTargetEarly: boolean;
}

/** Plans `pairs` into model calls (planCalls) and runs them up to the engine's slots. */
async function callModels(pairs: PairList, context: CallContext): Promise<void> {
  if (pairs.length === 0) return;
  const { unique, engineTargets, done, options, cancel, tally, turns } = context;
  const { engine } = options;
  const calls = await planCalls(pairs, unique, engineTargets, engine, options.tokenizer, {
    firstTargetEarly: context.firstTargetEarly,
    turns: context.turns,
    source: options.source?.code,
  });
  const targetIndex = new Map(engineTargets.map((target, i) => [target.code, i]));
  const caller = options.caller ?? {};
  // A segment sent in parts is whole once every part's answer is in (plural-parts.ts, sentence-parts.ts).
  const partsOfSegment = new Map<number, EngineSegment[]>();
  // Loops over a call's segments take turns: 200,000 segments into 10 targets are calls of
  // thousands of segments each, and a call's answers checked in one go was one of the
  // request's longest turns (docs/benchmarks.md, decision 0128's figures).
  for (let c = 0; c < calls.length; c++) {
    const { segments } = calls[c]!.chunk;
    for (let i = 0; i < segments.length; i++) {
      const { segment: u, part } = partOf(segments[i]!.id);
      if (part !== undefined) {
        const parts = partsOfSegment.get(u) ?? [];
        parts[part] = segments[i]!;
        partsOfSegment.set(u, parts);
      }
      if (turns.due()) await turns.yield();
    }
  }
  const partAnswers = new Map<string, string[]>();
  await runLimited(calls, Math.max(1, engine.budget.parallelCalls ?? 1), async ({ chunk, format }) => {
    const glossary = termsOfChunk(chunk.segments, unique);
    const result = await engine.translate({
      segments: chunk.segments,
      targets: chunk.targets,
      requestTargets: engineTargets,
      ...(options.source ? { source: options.source } : {}),
      ...(glossary.length > 0 ? { glossary } : {}),
      ...(options.instructions?.formality ? { formality: options.instructions.formality } : {}),
      ...(options.instructions?.context ? { context: options.instructions.context } : {}),
      format,
      signal: cancel.signal,
      caller,
    });
    tally.inputTokens += result.usage.inputTokens;
    tally.outputTokens += result.usage.outputTokens;
    tally.cachedInputTokens += result.usage.cachedInputTokens ?? 0;
    tally.cacheWriteTokens += result.usage.cacheWriteTokens ?? 0;
    tally.calls += result.calls ?? 1;
    tally.misses += result.glossaryMisses ?? 0;
    const validated: { target: number; unique: number; text: string }[] = [];
    for (const target of chunk.targets) {
      const translated = result.translations.get(target.code);
      const t = targetIndex.get(target.code)!;
      for (let i = 0; i < chunk.segments.length; i++) {
        if (turns.due()) await turns.yield();
        const segment = chunk.segments[i]!;
        const text = translated?.get(segment.id);
        if (text === undefined) throw new EngineError('the model did not translate every segment', true);
        const problem = markProblem(segment.text, text);
        if (problem) throw new EngineError(`the model broke the document's markup (${problem})`, true);
        const { segment: u, part } = partOf(segment.id);
        if (part === undefined) {
          validated.push({ target: t, unique: u, text });
          continue;
        }
        const joined = joinedAnswer(t, u, part, text, partAnswers, partsOfSegment.get(u)!, unique[u]!);
        if (joined !== undefined) validated.push({ target: t, unique: u, text: joined });
      }
    }
    for (let v = 0; v < validated.length; v++) {
      done.fill(validated[v]!.target, validated[v]!.unique, validated[v]!.text);
      if (turns.due()) await turns.yield();
    }
    await remember(validated, context);
  });
}

/**
 * Records one part's answer for (target, segment); once every part is in, the whole
 * message joined from them and checked like any answer (its marks exactly the segment's:
 * every category once). Undefined while parts are missing.
 */
function joinedAnswer(
  target: number,
  u: number,
  part: number,
  text: string,
  answers: Map<string, string[]>,
  parts: readonly EngineSegment[],
  whole: UniqueSegment,
): string | undefined {
  const key = `${target}:${u}`;
  const got = answers.get(key) ?? [];
  got[part] = text;
  answers.set(key, got);
  for (let index = 0; index < parts.length; index++) if (got[index] === undefined) return undefined;
  answers.delete(key);
  const joined = whole.branchPairs
    ? joinParts(whole.segment, parts, got, whole.branchPairs)
    : joinSentences(whole.segment.text, parts.map((part) => part.text), got);
  const problem = joined === undefined ? 'a part lost its branches' : markProblem(whole.segment.text, joined);
  if (problem) throw new EngineError(`the model broke the segment's parts (${problem})`, true);
  return joined;
}

/**
 * The model calls for `pairs`. Segments that the same targets need are planned together,
 * by format: usually every segment for every target, while a plural message shaped for
 * some targets only (or a segment memory held for some) is a small unit of its own. The
 * small units are issued first and the largest is planned around the slots they hold
 * (plan.ts, `busy`), so they do not add a tail after it.
 *
 * With `firstTargetEarly` (a streamed answer) the first target is planned on its own, as a
 * one-target request would be, and its calls are issued first: they take the slots before
 * the rest, so the first target arrives about as soon as a one-target request would, for
 * about one time to first token more on the whole request (docs/decisions/0088).
 *
 * Its loops over pairs and segments take turns (`turns`): 200,000 segments into 10
 * targets are 2,000,000 pairs, and planned in one go they held the loop half a second.
 */
export async function planCalls(
  pairs: PairList,
  unique: readonly UniqueSegment[],
  engineTargets: readonly EngineLanguage[],
  engine: TranslationEngine,
  /** Counts what the documents did not (a text the glossary guard changed, say). */
  tokenizer: Tokenizer,
  /** `source`: the source language's code, for cutting a long string at its sentences (sentence-parts.ts). */
  options: { readonly firstTargetEarly?: boolean; readonly turns?: Turns; readonly source?: string | undefined } = {},
): Promise<{ chunk: Chunk; format: Format }[]> {
  if (pairs.length === 0) return [];
  const turns = options.turns ?? new Turns();
  // Counted once per plan: the planner asks for a segment's tokens per shape it times.
  const counted = new Array<number | undefined>(unique.length);
  const partTokens = new Map<string, number>();
  const tokensOfUnique = (u: number): number => (counted[u] ??= unique[u]!.tokens ?? tokenizer.countTokens(unique[u]!.segment.text));
  const tokensOf = (segment: EngineSegment): number => {
    const { segment: u, part } = partOf(segment.id);
    if (part === undefined) return tokensOfUnique(u);
    // By text: a part's id names its place, and 2 parts and 3 parts of one segment share ids.
    let tokens = partTokens.get(segment.text);
    if (tokens === undefined) partTokens.set(segment.text, (tokens = tokenizer.countTokens(segment.text)));
    return tokens;
  };
  // A text the document worker did not count (masked terms, a plural shape) may be a
  // single 2 MB segment: counted here in slices, not by the planner's count in one go.
  for (const pair of pairs) {
    const u = uniqueOf(pair);
    if (counted[u] === undefined && unique[u]!.tokens === undefined && unique[u]!.segment.text.length > LONG_TEXT_CHARS) {
      counted[u] = await tokenizer.countTokensYielding(unique[u]!.segment.text);
    }
    if (turns.due()) await turns.yield();
  }
  const lead = options.firstTargetEarly === true ? targetOf(pairs[0]!) : undefined;
  const rest = lead === undefined ? pairs : await filterInTurns(pairs, (pair) => targetOf(pair) !== lead, turns);
  const leadPairs = lead !== undefined && rest.length > 0 ? await filterInTurns(pairs, (pair) => targetOf(pair) === lead, turns) : NO_PAIRS;
  const subject = leadPairs.length > 0 ? rest : pairs;
  const slots = Math.max(1, engine.budget.parallelCalls ?? 1);
  // Every call's answer wrapper follows from the request's target count (engines/prompt.ts keyedAnswer).
  const requestTargets = engineTargets.length;
  type Parts = ReadonlyMap<number, EngineSegment[]> | undefined;
  const plan = async (of: PairList, leadingPairs: PairList, leadParts: Parts, partsOf: Parts): Promise<PlannedCalls> => {
    const leading = leadingPairs.length > 0 ? await planUnits(leadingPairs, unique, engineTargets, tokensOf, leadParts, turns) : [];
    const units = await planUnits(of, unique, engineTargets, tokensOf, partsOf, turns);
    units.sort((x, y) => y.output - x.output);
    if (units.length === 1 && leading.length === 0) {
      const chunks = await planChunksInTurns(units[0]!.segments, units[0]!.targets, engine.budget, tokensOf, { requestTargets }, turns);
      const calls = chunks.map((chunk) => ({ chunk, format: units[0]!.format }));
      return { calls, time: expectedPlanTime(calls.map((call) => call.chunk), slots, tokensOf, requestTargets) };
    }
    // Small units each on their share of the slots, or each spread over the least busy
    // slots: which packs better depends on their sizes, so both are timed.
    const shared = await arrangeUnits(leading, units, engine.budget, tokensOf, requestTargets, false, turns);
    const spread = await arrangeUnits(leading, units, engine.budget, tokensOf, requestTargets, true, turns);
    return spread.time < shared.time ? spread : shared;
  };
  // A plural message (plural-parts.ts), or a string of several sentences in a known source
  // language (sentence-parts.ts), whose answer alone outlasts a balanced call may go in
  // parts: tried with 2, 3, … parts, kept only when clearly sooner.
  const sentences = new Map<number, SentenceSpan[] | undefined>();
  const sentencesOf = (u: number): SentenceSpan[] | undefined => {
    const entry = unique[u]!;
    if (options.source === undefined || entry.branchPairs !== undefined || entry.segment.pluralBranches !== undefined) return undefined;
    if (!sentences.has(u)) sentences.set(u, sentenceSpans(entry.segment.text, options.source, entry.terms.map((term) => term.term)));
    return sentences.get(u);
  };
  const cuttable = (u: number): boolean => unique[u]!.branchPairs !== undefined || sentencesOf(u) !== undefined;
  const partsOfUnique = (u: number, count: number): EngineSegment[] | undefined => {
    const entry = unique[u]!;
    const sizeOf = (text: string): number => tokenizer.countTokens(text);
    return entry.branchPairs ? pluralParts(entry.segment, entry.branchPairs, count, sizeOf) : sentenceParts(entry.segment, sentencesOf(u)!, count, sizeOf);
  };
  const withParts = async (of: PairList, planWith: (partsOf: Parts) => Promise<PlannedCalls>, cutAlready?: Parts): Promise<PlannedCalls & { partsOf: Parts }> => {
    let best: PlannedCalls & { partsOf: Parts } = Object.assign(await planWith(undefined), { partsOf: undefined });
    // A segment the stream's first target has in parts keeps those ids: the rest sends it whole.
    const large = slots > 1 ? (await largeSegments(of, tokensOfUnique, slots, cuttable, turns)).filter((u) => !cutAlready?.has(u)) : [];
    let previous = best.time;
    for (let count = 2; large.length > 0; count++) {
      const partsOf = new Map<number, EngineSegment[]>();
      let cut = false;
      for (const u of large) {
        const parts = partsOfUnique(u, count);
        if (parts === undefined) continue;
        partsOf.set(u, parts);
        if (parts.length === count) cut = true;
      }
      if (!cut) break;
      const split = await planWith(partsOf);
      if (split.time < best.time * (1 - TIME_TOLERANCE)) best = Object.assign(split, { partsOf });
      // One more part repeats the words around the message once more: past the best count, time only grows.
      if (split.time >= previous) break;
      previous = split.time;
    }
    return best;
  };
  // A stream's first target is planned as a one-target request would be, in parts too.
  const leadParts = leadPairs.length > 0 ? (await withParts(leadPairs, (partsOf) => plan(leadPairs, [], undefined, partsOf))).partsOf : undefined;
  return (await withParts(subject, (partsOf) => plan(subject, leadPairs, leadParts, partsOf), leadParts)).calls;
}

interface PlannedCalls {
  readonly calls: { chunk: Chunk; format: Format }[];
  /** When the last call is expected to end (plan.ts's units). */
  readonly time: number;
}

/**
 * The unique segments that may go in parts (`cuttable`: a plural message, a string of
 * several sentences) whose expected answer (one target) is larger than a balanced call's
 * share of the request's output: the ones that bound the request.
 */
async function largeSegments(
  pairs: PairList,
  tokensOfUnique: (u: number) => number,
  slots: number,
  cuttable: (u: number) => boolean,
  turns: Turns,
): Promise<number[]> {
  let total = 0;
  for (const pair of pairs) {
    total += expectedOutputTokens(tokensOfUnique(uniqueOf(pair)));
    if (turns.due()) await turns.yield();
  }
  const balanced = total / slots;
  const large = new Set<number>();
  for (const pair of pairs) {
    // Sentences are looked for only in a segment that is large already.
    const u = uniqueOf(pair);
    if (!large.has(u) && expectedOutputTokens(tokensOfUnique(u)) > balanced && cuttable(u)) large.add(u);
    if (turns.due()) await turns.yield();
  }
  return [...large];
}

/** `pairs.filter(keep)`, taking turns. */
async function filterInTurns(pairs: PairList, keep: (pair: number) => boolean, turns: Turns): Promise<PairList> {
  const kept = new PairBuffer(pairs.length);
  for (let p = 0; p < pairs.length; p++) {
    if (keep(pairs[p]!)) kept.push(pairs[p]!);
    if (turns.due()) await turns.yield();
  }
  return kept.list();
}

const NO_PAIRS: PairList = [];

/**
 * The calls of `leading` (all slots each), then the small units, then the largest unit
 * planned around the slots the calls before it hold; and the time the list takes on the
 * slots, in plan.ts's units (expectedCallTime).
 */
async function arrangeUnits(
  leading: readonly PlanUnit[],
  units: readonly PlanUnit[],
  budget: CallBudget,
  tokensOf: (segment: EngineSegment) => number,
  requestTargets: number,
  spread: boolean,
  turns: Turns,
): Promise<{ calls: { chunk: Chunk; format: Format }[]; time: number }> {
  const slots = Math.max(1, budget.parallelCalls ?? 1);
  const calls: { chunk: Chunk; format: Format }[] = [];
  const busy = new Array<number>(slots).fill(0);
  const add = async (unit: PlanUnit, unitBudget: CallBudget): Promise<void> => {
    const around = busy.some((time) => time > 0) ? { busy, requestTargets } : { requestTargets };
    for (const chunk of await planChunksInTurns(unit.segments, unit.targets, unitBudget, tokensOf, around, turns)) {
      calls.push({ chunk, format: unit.format });
      const slot = busy.indexOf(Math.min(...busy));
      busy[slot] = busy[slot]! + expectedCallTime(chunk, tokensOf, requestTargets);
    }
  };
  for (const unit of leading) await add(unit, budget);
  const total = units.reduce((sum, unit) => sum + unit.output, 0);
  for (const unit of units.slice(1)) {
    if (spread) await add(unit, budget);
    else await add(unit, Object.assign({}, budget, { parallelCalls: Math.max(1, Math.min(slots, Math.round((slots * unit.output) / Math.max(1, total)))) }));
  }
  await add(units[0]!, budget);
  return { calls, time: Math.max(...busy) };
}

interface PlanUnit {
  readonly segments: EngineSegment[];
  readonly targets: EngineLanguage[];
  readonly format: Format;
  /** Expected output tokens of the unit, for sharing the slots. */
  readonly output: number;
}

/** `pairs` as units: the segments (in document order) that one set of targets needs, per format; taking turns. */
async function planUnits(
  pairs: PairList,
  unique: readonly UniqueSegment[],
  engineTargets: readonly EngineLanguage[],
  tokensOf: (segment: EngineSegment) => number,
  /** Segments sent in parts (plural-parts.ts): unique index → its parts, in its place. */
  partsOf: ReadonlyMap<number, EngineSegment[]> | undefined,
  turns: Turns,
): Promise<PlanUnit[]> {
  const targetsOf = new Map<number, number[]>();
  for (const pair of pairs) {
    const target = targetOf(pair);
    const u = uniqueOf(pair);
    const list = targetsOf.get(u);
    if (list) list.push(target);
    else targetsOf.set(u, [target]);
    if (turns.due()) await turns.yield();
  }
  const units = new Map<string, { segments: number[]; targets: number[] }>();
  for (const [u, targets] of targetsOf) {
    targets.sort((a, b) => a - b);
    const signature = `${unique[u]!.format}\u0000${targets.join(',')}`;
    const unit = units.get(signature);
    if (unit) unit.segments.push(u);
    else units.set(signature, { segments: [u], targets });
    if (turns.due()) await turns.yield();
  }
  const planned: PlanUnit[] = [];
  for (const { segments, targets } of units.values()) {
    segments.sort((a, b) => a - b);
    const engineSegments: EngineSegment[] = [];
    let output = 0;
    for (const u of segments) {
      for (const segment of partsOf?.get(u) ?? [unique[u]!.segment]) {
        engineSegments.push(segment);
        output += expectedOutputTokens(tokensOf(segment));
      }
      if (turns.due()) await turns.yield();
    }
    planned.push({ segments: engineSegments, targets: targets.map((t) => engineTargets[t]!), format: unique[segments[0]!]!.format, output: targets.length * output });
  }
  return planned;
}

/** Saves a call's validated translations and hands them to the requests waiting for them. */
async function remember(validated: readonly { target: number; unique: number; text: string }[], context: CallContext): Promise<void> {
  const { keys, flight, options } = context;
  if (!keys || !options.memory) return;
  const entries: MemoryEntry[] = validated.map(({ target, unique: u, text }) => ({ key: keys[target]![u]!, translation: text }));
  await options.memory.save(entries, context.keysToSave);
  if (!flight) return;
  for (let e = 0; e < entries.length; e++) {
    flight.settle(entries[e]!.key, entries[e]!.translation);
    if (context.turns.due()) await context.turns.yield();
  }
}

/** The glossary entries whose term occurs in some segment of the chunk, once each. */
function termsOfChunk(segments: readonly EngineSegment[], unique: readonly UniqueSegment[]): GlossaryTerm[] {
  const terms = new Set<GlossaryTerm>();
  for (const segment of segments) for (const term of unique[partOf(segment.id).segment]!.terms) terms.add(term);
  return [...terms];
}
