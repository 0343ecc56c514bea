/** A validated translation request, as the HTTP layer hands it to the services. */
import type { PublicModel } from '../engines/registry.js';
import type { Format } from '../formats/format.js';
import type { Language } from '../languages.js';
import type { RequestedTarget } from './translate-document.js';

export interface TranslateInput {
  readonly content: string;
  readonly targets: readonly RequestedTarget[];
  readonly format?: Format;
  readonly source?: Language;
  readonly model: PublicModel;
}

export interface BatchItemInput {
  readonly id: string;
  readonly content: string;
  readonly format?: Format;
}

export interface BatchInput {
  readonly items: readonly BatchItemInput[];
  readonly targets: readonly RequestedTarget[];
  readonly source?: Language;
  readonly model: PublicModel;
}
