/**
 * What a request says about how to translate besides languages and glossary: the
 * register (`formality`, DeepL's values) and a `context` text. Both reach the model's
 * instructions (engines/prompt.ts) and the translation-memory key, so a formal
 * translation is never served for an informal request (docs/decisions/0034).
 */
import type { Formality } from '../engines/engine.js';
import { ServiceError } from '../errors.js';
import type { Language } from '../languages.js';

export interface TranslationInstructions {
  readonly formality?: Formality;
  readonly context?: string;
}

/**
 * The instructions of a request that gave a formality, a context or both; undefined when
 * it gave neither. Each shape written out (decision 0043).
 */
export function instructionsOf(formality: Formality | undefined, context: string | undefined): TranslationInstructions | undefined {
  if (formality) return context ? { formality, context } : { formality };
  return context ? { context } : undefined;
}

/** DeepL's `formality` values, which /v1 takes too. */
export const FORMALITY_VALUES = ['default', 'more', 'less', 'prefer_more', 'prefer_less'] as const;
export type FormalityValue = (typeof FORMALITY_VALUES)[number];

/** Characters (UTF-16 code units) of `context`: it is sent with every model call of the request. */
export const MAX_CONTEXT_CHARS = 4_000;

/**
 * Base languages whose grammar addresses the reader formally or informally (a T–V
 * pronoun pair or honorific verb forms): there `formality` changes the words. English,
 * the Scandinavian languages (the formal pronoun is archaic), Arabic, Hebrew, Thai,
 * Vietnamese and Chinese are left out: a register there is tone, not grammar, and
 * claiming it would promise what the request cannot check. A regional variant follows
 * its base language.
 */
const WITH_FORMAL_ADDRESS: ReadonlySet<string> = new Set([
  'bg', 'cs', 'de', 'el', 'es', 'et', 'fa', 'fi', 'fr', 'hi', 'hu', 'id', 'it', 'ja', 'ko',
  'lt', 'lv', 'nl', 'pl', 'pt', 'ro', 'ru', 'sk', 'sl', 'tr', 'uk', 'ur',
]);

export function supportsFormality(language: Language): boolean {
  return WITH_FORMAL_ADDRESS.has(language.code.split('-')[0]!);
}

export function isFormalityValue(value: string): value is FormalityValue {
  return (FORMALITY_VALUES as readonly string[]).includes(value);
}

/**
 * The register a `formality` value asks of these targets. `more`/`less` insist: a target
 * without formal address is a bad request (as DeepL answers it); `prefer_*` apply where
 * they can; `default` leaves the choice to the model. The `name` is the field's, for the message.
 */
export function resolveFormality(value: FormalityValue | undefined, targets: readonly Language[], name: string): Formality | undefined {
  if (value === undefined || value === 'default') return undefined;
  if (value === 'more' || value === 'less') {
    const without = targets.filter((target) => !supportsFormality(target));
    if (without.length > 0) {
      throw new ServiceError(
        'invalid_request',
        `${name} "${value}" is not supported for ${without.map((t) => t.code).join(', ')}; use "prefer_${value}" to apply it only where the language has formal address`,
      );
    }
  }
  // A prefer_* request where no target has formal address changes nothing: no line, no key part.
  if (!targets.some(supportsFormality)) return undefined;
  return value === 'more' || value === 'prefer_more' ? 'formal' : 'informal';
}

/** `context`: a string of at most MAX_CONTEXT_CHARS; empty means none. */
export function parseContext(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ServiceError('invalid_request', `${name} must be a string`);
  if (value.length > MAX_CONTEXT_CHARS) {
    throw new ServiceError('invalid_request', `${name} may have at most ${MAX_CONTEXT_CHARS} characters, got ${value.length}`);
  }
  return value.trim().length > 0 ? value : undefined;
}
