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
  '.strings': 'strings',
  '.stringsdict': 'stringsdict',
  '.xcstrings': 'xcstrings',
};

/**
 * A language code as a format's ecosystem spells it in file names: gettext and Java
 * write the region after an underscore (`pt_BR`, `messages_pt_BR.properties`); Apple's
 * `.lproj` folders name Chinese by its script (`zh-Hans.lproj`, `zh-Hant.lproj` for the
 * API's `zh` and `zh-TW`) and the rest as the API does (`pt-BR.lproj`); the others as the
 * API does (`pt-BR`: Rails' `config/locales/pt-BR.yml`, `messages.pt-BR.xlf`).
 */
export function localeInFileName(format: Format | undefined, code: string): string {
  if (format === 'strings' || format === 'stringsdict') return appleLanguageCode(code);
  return format === 'po' || format === 'properties' ? code.replace('-', '_') : code;
}

export function formatFromExtension(path: string): Format | undefined {
  return BY_EXTENSION[extname(path).toLowerCase()];
}
