/**
 * DeepL's language codes onto this service's (languages.ts) and back. DeepL writes codes
 * in upper case (`EN-US`, `PT-BR`, `ZH-HANS`); its clients standardize them to `en-US`,
 * `zh-HANS`; all are matched case-insensitively. Source languages are base languages
 * (DeepL's rule); a regional source code is read as its base. Chinese: `ZH-HANS` is this
 * service's `zh` and `ZH-HANT` its `zh-TW` (the Traditional script it serves).
 */
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
