/**
 * What a request brings to its translation besides the document: the caller's
 * translation memory (unless opted out) and the glossary it names, looked up before any
 * work or charge (unknown or another user's: 404 not_found).
 */
import type { Db } from '../db/database.js';
import { ServiceError } from '../errors.js';
import type { AppliedGlossary } from '../glossaries/glossary.js';
import { glossaryForTranslation } from '../glossaries/service.js';
import type { Language } from '../languages.js';
import type { SegmentMemory, TranslationMemory } from '../memory/translation-memory.js';
import type { RequestedTarget } from './translate-options.js';

export interface WorkContextDeps {
  readonly database: { readonly db: Db };
  readonly memory: TranslationMemory;
  readonly clock: () => number;
}

export interface WorkContext {
  readonly memory?: SegmentMemory;
  readonly glossary?: AppliedGlossary;
}

export async function workContext(
  deps: WorkContextDeps,
  userId: string,
  request: {
    readonly memory: boolean;
    readonly glossaryId?: string;
    readonly source?: Language;
    readonly targets?: readonly RequestedTarget[];
    readonly glossaryBaseForRegions?: boolean;
  },
): Promise<WorkContext> {
  const found = request.glossaryId === undefined ? undefined : await glossaryForTranslation(deps, userId, request.glossaryId);
  const glossary = found && request.glossaryBaseForRegions && request.targets ? withRegionalTargets(found, request.targets) : found;
  if (glossary && request.source && request.source.code !== glossary.source) {
    throw new ServiceError(
      'invalid_request',
      `the glossary is for source ${glossary.source}, but the request's source is ${request.source.code}`,
    );
  }
  const memory = request.memory ? deps.memory.forUser(userId) : undefined;
  // Each shape written out (decision 0043).
  if (memory) return glossary ? { memory, glossary } : { memory };
  return glossary ? { glossary } : {};
}

/**
 * DeepL's rule: a glossary for a base target (EN, PT) applies to its regional variants
 * (EN-US, PT-BR). An entry without a translation for a regional target of the request
 * takes its base language's. The id the memory key holds is marked when that added
 * terms, since /v1 (exact targets only) would translate the same segment without them.
 */
function withRegionalTargets(glossary: AppliedGlossary, targets: readonly RequestedTarget[]): AppliedGlossary {
  const regional = targets.map((t) => t.language.code).filter((code) => code.includes('-'));
  let added = false;
  const entries = glossary.entries.map((entry) => {
    const missing = regional.filter((code) => entry.translations[code] === undefined && entry.translations[code.split('-')[0]!] !== undefined);
    if (missing.length === 0) return entry;
    added = true;
    const translations = { ...entry.translations };
    for (const code of missing) translations[code] = translations[code.split('-')[0]!]!;
    return { term: entry.term, translations };
  });
  // Object.assign, not a spread followed by members (decision 0043).
  return added ? Object.assign({}, glossary, { id: `${glossary.id}+base-for-regions`, entries }) : glossary;
}
