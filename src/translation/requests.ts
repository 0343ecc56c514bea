/** A validated translation request, as the HTTP layer hands it to the services. */
import type { PublicModel } from '../engines/registry.js';
import type { Format } from '../formats/format.js';
import type { Language } from '../languages.js';
import type { TranslationInstructions } from './instructions.js';
import type { RequestedTarget } from './translate-options.js';

/** What every translation request names besides its documents. */
export interface TranslationRequest {
  readonly targets: readonly RequestedTarget[];
  readonly source?: Language;
  readonly model: PublicModel;
  /** false when the request opted out of translation memory (`"memory": false`). */
  readonly memory: boolean;
  /** The glossary to apply, as the caller gave its id. */
  readonly glossaryId?: string;
  /** Formality and context (instructions.ts). */
  readonly instructions?: TranslationInstructions;
}

export interface TranslateInput extends TranslationRequest {
  readonly content: string;
  readonly format?: Format;
}

export interface BatchItemInput {
  readonly id: string;
  readonly content: string;
  readonly format?: Format;
}

export interface BatchInput extends TranslationRequest {
  readonly items: readonly BatchItemInput[];
  /** DeepL's rule: the glossary's translations for a base language serve its regional targets (work-context.ts). */
  readonly glossaryBaseForRegions?: boolean;
}
