/**
 * Refuses, before any work, a request the engine behind its model cannot translate: an
 * engine with directions (Apertium's installed pairs) lists what it can do, and a
 * target outside them is a 400 `unsupported_language_pair` naming what is installed,
 * not a failed translation after the charge's reservation. Engines without directions
 * translate every pair and pass.
 */
import type { TranslationEngine } from '../engines/engine.js';
import { ServiceError } from '../errors.js';
import type { Language } from '../languages.js';

export function assertDirections(
  engine: TranslationEngine,
  source: Language | undefined,
  targets: ReadonlyArray<{ readonly language: Language }>,
): void {
  const directions = engine.directions;
  if (!directions) return;
  if (!source) {
    throw new ServiceError(
      'unsupported_language_pair',
      `the ${engine.id} engine needs the source language: name it in \`source\` (the text's language could not be told with confidence)`,
    );
  }
  const missing = targets.filter((target) => !directions.supports(source.code, target.language.code)).map((t) => t.language.code);
  if (missing.length === 0) return;
  const offered = directions.list().get(source.code) ?? [];
  const installed = offered.length > 0 ? `it translates ${source.code} into ${offered.join(', ')}` : `it translates nothing from ${source.code}`;
  throw new ServiceError(
    'unsupported_language_pair',
    `the ${engine.id} engine has no language pair installed for ${source.code} to ${missing.join(', ')}; ${installed}`,
  );
}
