/**
 * DeepL's language codes onto this service's (languages.ts) and back. DeepL writes codes
 * in upper case (`EN-US`, `PT-BR`, `ZH-HANS`); its clients standardize them to `en-US`,
 * `zh-HANS`; all are matched case-insensitively. Source languages are base languages
 * (DeepL's rule); a regional source code is read as its base. Chinese: `ZH-HANS` is this
 * service's `zh` and `ZH-HANT` its `zh-TW` (the Traditional script it serves).
 */
import type { LanguageDirections } from '../../../engines/engine.js';
import { LANGUAGES, findLanguage, type Language } from '../../../languages.js';
import { supportsFormality } from '../../../translation/instructions.js';

const ALIASES: Readonly<Record<string, string>> = { 'zh-hans': 'zh', 'zh-hant': 'zh-TW', nb: 'nb', no: 'nb' };
const DEEPL_CODE: Readonly<Record<string, string>> = { 'zh-TW': 'ZH-HANT' };

/** A target: a language this service serves, or undefined. */
export function targetFromDeepl(code: string): Language | undefined {
  return findLanguage(ALIASES[code.toLowerCase()] ?? code);
}

/** A source: read as its base language (DeepL takes only base source codes). */
export function sourceFromDeepl(code: string): Language | undefined {
  const exact = targetFromDeepl(code);
  return exact ? (findLanguage(exact.code.split('-')[0]!) ?? exact) : undefined;
}

/** How a language of ours is written in DeepL's answers. */
export function toDeeplCode(language: Language): string {
  return DEEPL_CODE[language.code] ?? language.code.toUpperCase();
}

export interface DeeplLanguage {
  readonly language: string;
  readonly name: string;
  readonly supports_formality?: boolean;
}

/** GET /languages (type=source): the base languages. */
export const SOURCE_LANGUAGES: readonly DeeplLanguage[] = LANGUAGES.filter((l) => !l.code.includes('-')).map((l) => ({
  language: toDeeplCode(l),
  name: l.name,
}));

/**
 * GET /languages?type=target: every language, except English and Portuguese without a
 * region (DeepL asks for EN-GB/EN-US and PT-BR/PT-PT; its clients refuse bare `en` and
 * `pt` as targets), plus ZH-HANS for `zh`. `supports_formality` is true where the
 * language has formal address (translation/instructions.ts, docs/decisions/0034).
 */
export const TARGET_LANGUAGES: readonly DeeplLanguage[] = [
  ...LANGUAGES.filter((l) => l.code !== 'en' && l.code !== 'pt').map((l) => ({
    language: toDeeplCode(l),
    name: l.name,
    supports_formality: supportsFormality(l),
  })),
  { language: 'ZH-HANS', name: 'Chinese (simplified)', supports_formality: supportsFormality(findLanguage('zh')!) },
];

/**
 * GET /languages for an engine with directions (Apertium's installed pairs): DeepL lists
 * sources and targets apart, not per direction, so the sources are the languages with at
 * least one target and the targets those at least one source reaches, in DeepL's forms
 * as above. `supports_formality` is false: such an engine has no formality to offer
 * (docs/decisions/0095). Which target a source reaches: the 400
 * `unsupported_language_pair` names it, and LibreTranslate's /languages lists it.
 */
export function deeplLanguagesOf(directions: LanguageDirections): { source: DeeplLanguage[]; target: DeeplLanguage[] } {
  const list = directions.list();
  const reached = new Set([...list.values()].flat());
  const source = SOURCE_LANGUAGES.filter((language) => list.has(sourceFromDeepl(language.language)!.code));
  const target = TARGET_LANGUAGES.filter((language) => reached.has(targetFromDeepl(language.language)!.code)).map((language) => ({
    language: language.language,
    name: language.name,
    supports_formality: false,
  }));
  return { source, target };
}
