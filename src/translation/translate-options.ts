/**
 * What a document translation is asked for: its own file, so that the segment work and the
 * document translation that runs it can both name it without importing each other.
 */
import type { TokenUsage, TranslationEngine } from '../engines/engine.js';
import type { Tokenizer } from '../tokens.js';
import type { AppliedGlossary } from '../glossaries/glossary.js';
import type { Language } from '../languages.js';
import type { SegmentMemory } from '../memory/translation-memory.js';
import type { Cancellation } from './cancellation.js';
import type { TranslationInstructions } from './instructions.js';

/** A target as requested: the canonical language plus the caller's spelling of its code. */
export interface RequestedTarget {
  readonly requested: string;
  readonly language: Language;
}

export interface TranslateOptions {
  readonly targets: readonly RequestedTarget[];
  readonly source?: Language;
  readonly engine: TranslationEngine;
  /** The process's tokenizer (tokens.ts), for the planner's counts the documents lack. */
  readonly tokenizer: Tokenizer;
  /** Read only when a model call is about to be made (cancellation.ts). */
  readonly cancellation?: Cancellation;
  /**
   * Who the model calls are for: calls of one caller share model-call slots fairly with
   * other callers' (engines/provider-limit.ts). Default: a new caller for this call.
   */
  readonly caller?: object;
  /** The caller's translation memory; absent when the request opted out (`"memory": false`). */
  readonly memory?: SegmentMemory;
  /** The glossary in force, if the request named one. */
  readonly glossary?: AppliedGlossary;
  /** Formality and context for the model; part of the memory key. */
  readonly instructions?: TranslationInstructions;
  /**
   * Told each target's rendered documents (in the order given) as soon as that target is
   * complete, before the others are (streaming answers); targets come in the order they finish.
   */
  readonly onTargetDone?: (target: RequestedTarget, documents: readonly string[]) => void;
}

/** What a piece of translation work did, over all its documents. */
export interface WorkTally {
  /** Summed over every model call; calls may serve several documents at once, so there is no per-document share. */
  readonly usage: TokenUsage;
  /** Model calls made (repairs included). */
  readonly calls: number;
  /** Distinct segment × target pairs served from memory (stored, or translated meanwhile for another request). */
  readonly cachedSegments: number;
  /** Pairs whose answer lacks a required glossary term after the repair round. */
  readonly glossaryMisses: number;
}
