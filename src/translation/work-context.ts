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
import { userMemory, type SegmentMemory } from '../memory/user-memory.js';

export interface WorkContextDeps {
  readonly database: { readonly db: Db };
  readonly clock: () => number;
}

export interface WorkContext {
  readonly memory?: SegmentMemory;
  readonly glossary?: AppliedGlossary;
}

export async function workContext(
  deps: WorkContextDeps,
  userId: string,
  request: { readonly memory: boolean; readonly glossaryId?: string; readonly source?: Language },
): Promise<WorkContext> {
  const glossary = request.glossaryId === undefined ? undefined : await glossaryForTranslation(deps, userId, request.glossaryId);
  if (glossary && request.source && request.source.code !== glossary.source) {
    throw new ServiceError(
      'invalid_request',
      `the glossary is for source ${glossary.source}, but the request's source is ${request.source.code}`,
    );
  }
  return {
    ...(request.memory ? { memory: userMemory(deps.database.db, userId, deps.clock) } : {}),
    ...(glossary ? { glossary } : {}),
  };
}
