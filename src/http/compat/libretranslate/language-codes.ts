/**
 * LibreTranslate's language codes onto this service's. Its servers list base codes (`zh`,
 * `pt`, `nb`) and a few scripts and regions (`zh-Hans`, `zh-Hant`, `pt-BR`; `zt` for
 * Traditional Chinese in older releases); its clients send what they hold: Weblate maps
 * its `zh_Hans` to `zh`, wagtail-localize sends the base of a locale, i18n-ally sends the
 * editor's locale as is (`zh-CN`, `de-DE`). A code we do not serve whose base we do is
 * read as that base; matching is case-insensitive.
 */
import type { LanguageDirections } from '../../../engines/engine.js';
import { LANGUAGES, findLanguage, type Language } from '../../../languages.js';

const ALIASES: Readonly<Record<string, string>> = {
  'zh-hans': 'zh',
  'zh-cn': 'zh',
  'zh-sg': 'zh',
  'zh-hant': 'zh-TW',
  'zh-hk': 'zh-TW',
  zt: 'zh-TW',
  no: 'nb',
  nn: 'nb',
  'nb-no': 'nb',
};

export function fromLibreCode(code: string): Language | undefined {
  const lower = code.toLowerCase();
  const alias = ALIASES[lower];
  if (alias) return findLanguage(alias);
  return findLanguage(code) ?? (code.includes('-') ? fromLibreCode(code.split('-')[0]!) : undefined);
}

export interface LibreLanguage {
  readonly code: string;
  readonly name: string;
  /** Mastodon reads this to know which targets a source can go to. */
  readonly targets: readonly string[];
}

/** GET /languages: every language, each able to go to every other. */
export const LIBRE_LANGUAGES: readonly LibreLanguage[] = LANGUAGES.map((language) => ({
  code: language.code,
  name: language.name,
  targets: LANGUAGES.filter((other) => other !== language).map((other) => other.code),
}));

/**
 * GET /languages for an engine with directions (Apertium's installed pairs): what that
 * engine can do, as a LibreTranslate server lists its installed models — every language
 * that is a source or a target of one, each with the targets it can go to (none for a
 * language that is only a target).
 */
export function libreLanguagesOf(directions: LanguageDirections): LibreLanguage[] {
  const list = directions.list();
  const reached = new Set([...list.keys(), ...[...list.values()].flat()]);
  return LANGUAGES.filter((language) => reached.has(language.code)).map((language) => ({
    code: language.code,
    name: language.name,
    targets: list.get(language.code) ?? [],
  }));
}
