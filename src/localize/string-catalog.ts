/**
 * A String Catalog (`.xcstrings`) in sync (docs/decisions/0085): one file that holds
 * every language, updated in place. Its strings are its entries (by key, the stable name
 * Xcode gives them); an entry's source text is its source-language localization (or its
 * key, when it has none); a target's text for an entry is its localization for the
 * target, as JSON. Only the entries some target needs travel, in one catalog sent once
 * for all those targets; each target's answer is merged into the file as it is on disk
 * then, so every target lands in the one file, other languages and entries sync did not
 * send (kept translations, hand edits) untouched. The file is written in Xcode's layout,
 * which a catalog Xcode wrote already has.
 */
import { writeXcodeJson, type XcodeValue } from '../formats/index.js';
import { appleLanguageCode } from '../languages.js';

type Json = Record<string, XcodeValue>;
interface Catalog {
  sourceLanguage: string;
  strings: Record<string, Json>;
  [field: string]: XcodeValue;
}

export class CatalogError extends Error {}

function parse(text: string, path: string): Catalog {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CatalogError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  const catalog = value as Catalog;
  if (typeof catalog !== 'object' || catalog === null || typeof catalog.sourceLanguage !== 'string' || typeof catalog.strings !== 'object' || catalog.strings === null) {
    throw new CatalogError(`${path} is not a String Catalog (it needs "sourceLanguage" and "strings")`);
  }
  return catalog;
}

function localizations(entry: Json): Json | undefined {
  const value = entry.localizations;
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

/** Entry key -> its source text, for the entries a translation is made of (not `shouldTranslate: false`). */
export function catalogUnits(text: string, path: string): Map<string, string> {
  const catalog = parse(text, path);
  const units = new Map<string, string>();
  for (const [key, entry] of Object.entries(catalog.strings)) {
    if (entry.shouldTranslate === false) continue;
    const source = localizations(entry)?.[catalog.sourceLanguage];
    units.set(key, source === undefined ? key : JSON.stringify(source));
  }
  return units;
}

/** Entry key -> the target's localization (as JSON), for the entries that have one. */
export function catalogTargetValues(text: string, path: string, target: string): Map<string, string> {
  const catalog = parse(text, path);
  const code = appleLanguageCode(target);
  const values = new Map<string, string>();
  for (const [key, entry] of Object.entries(catalog.strings)) {
    const localization = localizations(entry)?.[code];
    if (localization !== undefined) values.set(key, JSON.stringify(localization));
  }
  return values;
}

/** The catalog with only `keys`' entries, each with its source language's localization only: what a sync sends. */
export function catalogSubset(text: string, path: string, keys: readonly string[]): string {
  const catalog = parse(text, path);
  const strings: Record<string, Json> = {};
  for (const key of keys) {
    const entry = { ...catalog.strings[key]! };
    const source = localizations(entry)?.[catalog.sourceLanguage];
    if (source === undefined) delete entry.localizations;
    else entry.localizations = { [catalog.sourceLanguage]: source };
    strings[key] = entry;
  }
  return writeXcodeJson({ ...catalog, strings }, 0);
}

/** A target's localizations of `keys` in the API's answer (a whole catalog), as JSON. */
export function catalogAnswer(text: string, path: string, target: string, keys: readonly string[]): Map<string, string> {
  const answer = catalogTargetValues(text, path, target);
  return new Map(
    keys.map((key) => {
      const value = answer.get(key);
      if (value === undefined) throw new CatalogError(`the API's translation of ${path} has no ${appleLanguageCode(target)} localization for ${JSON.stringify(key)}`);
      return [key, value];
    }),
  );
}

/** `base` (the file as it is) with the target's localization of every key `valueOf` names set to it; the rest as it was. */
export function mergeCatalog(base: string, path: string, target: string, keys: Iterable<string>, valueOf: (key: string) => string): string {
  const catalog = parse(base, path);
  const code = appleLanguageCode(target);
  for (const key of keys) {
    const entry = catalog.strings[key];
    if (!entry) continue;
    entry.localizations = { ...(localizations(entry) ?? {}), [code]: JSON.parse(valueOf(key)) as XcodeValue };
  }
  return writeXcodeJson(catalog, 0) + (base.endsWith('\n') ? '\n' : '');
}
