/**
 * The `apertium` engine: real machine translation with no model and no key, by the
 * installed Apertium language pairs (Debian packages apertium-eng-spa, apertium-fr-es…).
 *
 * Each segment is written in Apertium's stream format (stream-format.ts: pairs as
 * word-bound blanks that move with their words, atomic marks as superblanks it never
 * translates), sent through the long-lived pipeline of the mode (pipeline.ts), read
 * back and checked like a model's answer (validate.ts: every mark once, well nested,
 * something said). A segment whose pairs did not survive the reordering — Apertium drops
 * a word (`<g1>I</g1> bought` → `Compré`) or splits a pair's words apart — is translated
 * again with its marks pinned where the source has them (always well nested); one that
 * still fails makes the chunk fail with a retryable EngineError, never a wrong answer;
 * one Apertium answers with nothing at all keeps its source words. A pair whose words
 * Apertium dropped gets them back (emptied-pairs.ts), and a superblank it swallowed is
 * put back beside its neighbour (stream-format.ts).
 *
 * Segments are translated, never whole documents: the formats keep the document's
 * structure; Apertium only ever sees words and our marks.
 *
 * Glossary entries are applied before translation: the term is replaced by its required
 * translation as a superblank, so Apertium never translates it (docs/glossaries.md).
 * Formality and context are not used: Apertium has no such input.
 *
 * Usage is counted with o200k, like the pseudo engine, so charges read the same.
 */
import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import type { Tokenizer } from '../../tokens.js';
import { FairLimiter, untilAborted } from '../provider-limit.js';
import { segmentProblem, type ProblemKind } from '../validate.js';
import {
  EngineError,
  type CallBudget,
  type ChunkTranslation,
  type EngineLanguage,
  type EngineSegment,
  type LanguageDirections,
  type TranslateChunkInput,
  type TranslationEngine,
} from '../engine.js';
import type { ApertiumMode, ApertiumPairs } from './pairs.js';
import { ApertiumPipeline } from './pipeline.js';
import { emptiedPairs, hasWords, refillPairs } from './emptied-pairs.js';
import { decodeSegment, encodeSegment, type FixedTerm } from './stream-format.js';

const execFileAsync = promisify(execFile);

type Attempt = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly kind: ProblemKind };

export interface ApertiumEngineOptions {
  readonly pairs: ApertiumPairs;
  /** Where the modes are (`$APERTIUM_DATADIR`, else /usr/share/apertium). */
  readonly dataDir: string;
  readonly budget: CallBudget;
  /** How long one text may wait for its answer before the pipeline is restarted (config.engineTimeoutMs). */
  readonly timeoutMs: number;
  /** Chunks translated at once (config.engineConcurrency). */
  readonly concurrency: number;
  /** A pipeline with no text in it this long is stopped (config.apertiumIdleMs); 0 or absent: never. */
  readonly idleMs?: number;
  /** Counts usage, as for every engine (services.ts makes one per process). */
  readonly tokenizer: Tokenizer;
}

export class ApertiumEngine implements TranslationEngine {
  readonly id = 'apertium';
  readonly budget: CallBudget;
  readonly directions: LanguageDirections;
  readonly #options: ApertiumEngineOptions;
  readonly #limit: FairLimiter;
  /** mode name → its chain's shell text, read once from apertium-wblank-mode. */
  readonly #chains = new Map<string, Promise<string>>();
  /**
   * mode name → its pipelines, started as chunks need them: at most `concurrency`, and no
   * more than the machine has cores — a pipeline keeps a core busy, and each holds its
   * pair's transducers (about 200 MB of resident memory for eng-spa). Chunks beyond share
   * pipelines, their texts queued in the pipe.
   */
  readonly #pools = new Map<string, ApertiumPipeline[]>();

  constructor(options: ApertiumEngineOptions) {
    this.#options = options;
    this.budget = options.budget;
    this.#limit = new FairLimiter(options.concurrency);
    const pairs = options.pairs;
    this.directions = {
      supports: (source, target) => pairs.modeFor(source, target) !== undefined,
      list: () => pairs.directions(),
    };
  }

  /** The pipelines running now, by mode (tests look at restarts). */
  pipelines(mode: string): readonly ApertiumPipeline[] {
    return this.#pools.get(mode) ?? [];
  }

  /** Stops every pipeline (an idle one stops by itself after `idleMs`, and starts again when needed). */
  close(): void {
    for (const pool of this.#pools.values()) for (const pipeline of pool) pipeline.close();
    this.#pools.clear();
  }

  async translate(input: TranslateChunkInput): Promise<ChunkTranslation> {
    input.signal?.throwIfAborted();
    const source = input.source;
    if (!source) throw new EngineError('the Apertium engine needs the source language; name it in the request', false);
    const modes = input.targets.map((target) => {
      const mode = this.#options.pairs.modeFor(source.code, target.code);
      if (!mode) throw new EngineError(`no Apertium language pair is installed for ${source.code} to ${target.code}`, false);
      return mode;
    });

    let inputTokens = 0;
    for (const segment of input.segments) inputTokens += await this.#options.tokenizer.countTokensYielding(segment.text);
    const translations = new Map<string, Map<string, string>>();
    let outputTokens = 0;
    await this.#limit.run(
      input.caller ?? {},
      async () => {
        const done = await untilAborted(
          Promise.all(input.targets.map((target, i) => this.#translateTarget(input, target, modes[i]!))),
          input.signal,
        );
        input.targets.forEach((target, i) => translations.set(target.code, done[i]!));
      },
      input.signal,
    );
    for (const byId of translations.values()) for (const text of byId.values()) outputTokens += await this.#options.tokenizer.countTokensYielding(text);
    return { translations, usage: { inputTokens, outputTokens } };
  }

  async #translateTarget(input: TranslateChunkInput, target: EngineLanguage, mode: ApertiumMode): Promise<Map<string, string>> {
    const pipeline = await this.#pipelineFor(mode);
    const fixedTerms = fixedTermsFor(input, target);
    const moved = await Promise.all(input.segments.map((segment) => this.#attempt(pipeline, segment, true, fixedTerms)));
    const out = new Map<string, string>();
    const failed: EngineSegment[] = [];
    input.segments.forEach((segment, i) => {
      const attempt = moved[i]!;
      if (attempt.ok) out.set(segment.id, attempt.text);
      else failed.push(segment);
    });
    if (failed.length === 0) return out;
    // Pairs pinned where the source has them: the words move between them, the marks never.
    const pinned = await Promise.all(failed.map((segment) => this.#attempt(pipeline, segment, false, fixedTerms)));
    let lost = 0;
    failed.forEach((segment, i) => {
      const attempt = pinned[i]!;
      if (attempt.ok) out.set(segment.id, attempt.text);
      // Apertium answers some texts with nothing at all (a lone `Will`, dropped as an
      // auxiliary verb): such a segment keeps its source words, as text nobody can
      // translate does. Marks are never given up this way: their loss is an error.
      else if (attempt.kind === 'empty') out.set(segment.id, segment.text);
      else lost++;
    });
    if (lost > 0) {
      const segments = lost === 1 ? 'segment' : 'segments';
      throw new EngineError(`Apertium's translation of ${lost} ${segments} into ${target.code} lost their markup or placeholders`, true);
    }
    return out;
  }

  /** One translation of `segment`, or what the answer checks found wrong with it. */
  async #attempt(pipeline: ApertiumPipeline, segment: EngineSegment, moveMarks: boolean, fixedTerms: readonly FixedTerm[]): Promise<Attempt> {
    const encoded = encodeSegment(segment.text, { moveMarks, fixedTerms });
    const answer = await pipeline.translate(encoded.stream);
    let text = decodeSegment(answer, encoded);
    const emptied = emptiedPairs(segment.text, text);
    if (emptied.length > 0) {
      const fills = await Promise.all(emptied.map(async ({ pair, words }) => ({ pair, words: await this.#wordsAlone(pipeline, words, fixedTerms) })));
      text = refillPairs(text, fills);
    }
    const problem = segmentProblem(segment, text);
    return problem ? { ok: false, kind: problem.kind } : { ok: true, text };
  }

  /** `words` (no marks) translated on their own; as they were when Apertium answers them with nothing. */
  async #wordsAlone(pipeline: ApertiumPipeline, words: string, fixedTerms: readonly FixedTerm[]): Promise<string> {
    const encoded = encodeSegment(words, { moveMarks: true, fixedTerms });
    const alone = decodeSegment(await pipeline.translate(encoded.stream), encoded);
    return hasWords(alone) ? alone : words;
  }

  /** A pipeline of `mode` with the fewest texts in it, starting another while under the cap. */
  async #pipelineFor(mode: ApertiumMode): Promise<ApertiumPipeline> {
    let pool = this.#pools.get(mode.name);
    if (!pool) this.#pools.set(mode.name, (pool = []));
    const idle = pool.find((pipeline) => pipeline.inFlight === 0);
    if (idle) return idle;
    if (pool.length < Math.min(this.#options.concurrency, availableParallelism())) {
      const pipeline = new ApertiumPipeline({ chain: await this.#chainOf(mode), timeoutMs: this.#options.timeoutMs, idleMs: this.#options.idleMs ?? 0 });
      pool.push(pipeline);
      return pipeline;
    }
    return pool.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
  }

  #chainOf(mode: ApertiumMode): Promise<string> {
    let chain = this.#chains.get(mode.name);
    if (!chain) {
      const file = `${this.#options.dataDir}/modes/${mode.name}.mode`;
      chain = execFileAsync('apertium-wblank-mode', ['-z', file]).then(({ stdout }) => stdout.trim());
      chain.catch(() => this.#chains.delete(mode.name));
      this.#chains.set(mode.name, chain);
    }
    return chain.catch((error: unknown) => {
      throw new EngineError('the Apertium engine could not read its language pair', true, { cause: error });
    });
  }
}

/** The glossary entries with a translation for `target`, as terms to write untranslated. */
function fixedTermsFor(input: TranslateChunkInput, target: EngineLanguage): FixedTerm[] {
  const terms: FixedTerm[] = [];
  for (const entry of input.glossary ?? []) {
    const translation = entry.translations[target.code];
    if (translation !== undefined) terms.push({ term: entry.term, translation });
  }
  return terms;
}
