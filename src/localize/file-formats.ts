/** A file's API format from its extension; undefined lets the API detect it from the content. */
import { extname } from 'node:path';
import type { Format } from './api.js';
import { appleLanguageCode } from '../languages.js';

const BY_EXTENSION: Readonly<Record<string, Format>> = {
  '.json': 'json',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.html': 'html',
  '.htm': 'html',
  '.txt': 'plain',
  '.po': 'po',
  '.pot': 'po',
  '.properties': 'properties',
  '.yml': 'yaml',
  '.yaml': 'yaml',
  '.xlf': 'xliff',
  '.xliff': 'xliff',
  '.arb': 'arb',
  '.strings': 'strings',
  '.stringsdict': 'stringsdict',
  '.xcstrings': 'xcstrings',
};

/**
 * Android resources live in `values/` (the default, the source's) and `values-{qualifier}/`
 * folders; an XML file in such a folder is a string resource file. (A pattern's
 * `values-{locale}/` matches too.)
 */
const ANDROID_VALUES = /(?:^|\/)values(?:-[^/]*)?\/[^/]+\.xml$/i;

/**
 * A language code as an Android resource qualifier: `fr`, `pt-rBR` and `zh-rTW` (a region
 * after `-r`), and BCP 47's `b+` form for anything else (`b+sr+Latn`, `b+zh+Hant+TW`),
 * the forms aapt accepts in a `values-…` folder name.
 */
export function androidQualifier(code: string): string {
  const parts = code.split(/[-_]/);
  const language = parts[0]!.toLowerCase();
  if (parts.length === 1) return language;
  if (parts.length === 2 && /^(?:[A-Za-z]{2}|\d{3})$/.test(parts[1]!)) return `${language}-r${parts[1]!.toUpperCase()}`;
  return ['b', language, ...parts.slice(1)].join('+');
}

/**
 * A language code as a format's ecosystem spells it in file names: gettext, Java and
 * Flutter write the region after an underscore (`pt_BR`, `messages_pt_BR.properties`,
 * `app_pt_BR.arb`), Android as a resource qualifier (`values-pt-rBR`), Apple's `.lproj`
 * folders name Chinese by its script (`zh-Hans.lproj`, `zh-Hant.lproj` for the API's `zh`
 * and `zh-TW`) and the rest as the API does (`pt-BR.lproj`), the others as the API does
 * (`pt-BR`: Rails' `config/locales/pt-BR.yml`, `messages.pt-BR.xlf`).
 */
export function localeInFileName(format: Format | undefined, code: string): string {
  if (format === 'android') return androidQualifier(code);
  if (format === 'strings' || format === 'stringsdict') return appleLanguageCode(code);
  return format === 'po' || format === 'properties' || format === 'arb' ? code.replaceAll('-', '_') : code;
}

/**
 * The source language's spelling in its own file names: as the targets', except Android,
 * whose source strings are the default resources (`values/`, no qualifier): the empty
 * string, for which a pattern's `values-{locale}` reads `values` (patterns.ts).
 */
export function sourceLocaleInFileName(format: Format | undefined, code: string): string {
  return format === 'android' ? '' : localeInFileName(format, code);
}

export function formatFromExtension(path: string): Format | undefined {
  const byExtension = BY_EXTENSION[extname(path).toLowerCase()];
  if (byExtension !== undefined) return byExtension;
  return ANDROID_VALUES.test(path) ? 'android' : undefined;
}
