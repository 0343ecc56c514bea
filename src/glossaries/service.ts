/**
 * Glossaries for a user: create (within the per-user limit), list, read, replace (the
 * version goes up, so translations made under the old content are not reused), delete,
 * and the lookup a translation makes before any work or charge.
 */
import type { Db } from '../db/database.js';
import { ServiceError } from '../errors.js';
import { GLOSSARY_LIMITS, type AppliedGlossary, type Glossary } from './glossary.js';
import { countGlossaries, deleteGlossary, findGlossary, insertGlossary, listGlossaries, replaceGlossary } from './store.js';
import { parseGlossaryBody } from './validate.js';

export interface GlossaryDeps {
  readonly database: { readonly db: Db };
  readonly clock: () => number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function createGlossary(deps: GlossaryDeps, userId: string, body: unknown): Promise<Glossary> {
  const input = parseGlossaryBody(body);
  const { db } = deps.database;
  if ((await countGlossaries(db, userId)) >= GLOSSARY_LIMITS.perUser) {
    throw new ServiceError('invalid_request', `a user may have at most ${GLOSSARY_LIMITS.perUser} glossaries; delete one first`);
  }
  return insertGlossary(db, userId, input, deps.clock());
}

export async function listUserGlossaries(deps: GlossaryDeps, userId: string): Promise<Glossary[]> {
  return listGlossaries(deps.database.db, userId);
}

export async function getGlossary(deps: GlossaryDeps, userId: string, id: string): Promise<Glossary> {
  const glossary = UUID.test(id) ? await findGlossary(deps.database.db, userId, id.toLowerCase()) : undefined;
  if (!glossary) throw notFound();
  return glossary;
}

export async function putGlossary(deps: GlossaryDeps, userId: string, id: string, body: unknown): Promise<Glossary> {
  if (!UUID.test(id)) throw notFound();
  const input = parseGlossaryBody(body);
  const glossary = await replaceGlossary(deps.database.db, userId, id.toLowerCase(), input, deps.clock());
  if (!glossary) throw notFound();
  return glossary;
}

export async function removeGlossary(deps: GlossaryDeps, userId: string, id: string): Promise<void> {
  if (!UUID.test(id) || !(await deleteGlossary(deps.database.db, userId, id.toLowerCase()))) throw notFound();
}

/** The glossary a translation names, or 404 not_found (unknown, or another user's). */
export async function glossaryForTranslation(deps: GlossaryDeps, userId: string, id: string): Promise<AppliedGlossary> {
  const { version, source, entries, doNotTranslate } = await getGlossary(deps, userId, id);
  return { id: id.toLowerCase(), version, source, entries, doNotTranslate };
}

function notFound(): ServiceError {
  return new ServiceError('not_found', 'no glossary with this id');
}
