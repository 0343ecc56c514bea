/** The 43 languages of docs/contract.md §3.15: 36 base codes and 7 regional variants. */
export interface Language {
  readonly code: string;
  readonly name: string;
  readonly rtl: boolean;
}

const RTL = new Set(['ar', 'fa', 'he', 'ur']);

const ENTRIES: ReadonlyArray<readonly [code: string, name: string]> = [
  ['ar', 'Arabic'],
  ['bg', 'Bulgarian'],
  ['cs', 'Czech'],
  ['da', 'Danish'],
  ['de', 'German'],
  ['el', 'Greek'],
  ['en', 'English'],
  ['es', 'Spanish'],
  ['et', 'Estonian'],
  ['fa', 'Persian'],
  ['fi', 'Finnish'],
  ['fr', 'French'],
  ['he', 'Hebrew'],
  ['hi', 'Hindi'],
  ['hu', 'Hungarian'],
  ['id', 'Indonesian'],
  ['it', 'Italian'],
  ['ja', 'Japanese'],
  ['ko', 'Korean'],
  ['lt', 'Lithuanian'],
  ['lv', 'Latvian'],
  ['nb', 'Norwegian Bokmål'],
  ['nl', 'Dutch'],
  ['pl', 'Polish'],
  ['pt', 'Portuguese'],
  ['ro', 'Romanian'],
  ['ru', 'Russian'],
  ['sk', 'Slovak'],
  ['sl', 'Slovenian'],
  ['sv', 'Swedish'],
  ['th', 'Thai'],
  ['tr', 'Turkish'],
  ['uk', 'Ukrainian'],
  ['ur', 'Urdu'],
  ['vi', 'Vietnamese'],
  ['zh', 'Chinese'],
  ['en-GB', 'English (United Kingdom)'],
  ['en-US', 'English (United States)'],
  ['es-MX', 'Spanish (Mexico)'],
  ['fr-CA', 'French (Canada)'],
  ['pt-BR', 'Portuguese (Brazil)'],
  ['pt-PT', 'Portuguese (Portugal)'],
  ['zh-TW', 'Chinese (Taiwan)'],
];

export const LANGUAGES: readonly Language[] = Object.freeze(
  ENTRIES.map(([code, name]) => Object.freeze({ code, name, rtl: RTL.has(code.split('-')[0]!) })),
);

const BY_LOWER_CODE = new Map(LANGUAGES.map((language) => [language.code.toLowerCase(), language]));

/** Codes match case-insensitively (docs/contract.md §3.1); returns the canonical entry. */
export function findLanguage(code: string): Language | undefined {
  return BY_LOWER_CODE.get(code.toLowerCase());
}

/**
 * A language code as Apple spells it in `.lproj` folder names and String Catalog
 * localizations (docs/formats.md "Apple language codes"): Chinese is named by its
 * script, `zh-Hans` (the API's `zh`, simplified) and `zh-Hant` (the API's `zh-TW`,
 * traditional); every other code of the API's list is Apple's spelling already
 * (`pt-BR`, `en-GB`, `fr-CA`).
 */
export function appleLanguageCode(code: string): string {
  const lower = code.toLowerCase();
  if (lower === 'zh' || lower === 'zh-cn' || lower === 'zh-hans') return 'zh-Hans';
  if (lower === 'zh-tw' || lower === 'zh-hk' || lower === 'zh-hant') return 'zh-Hant';
  return code;
}
