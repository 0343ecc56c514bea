/**
 * A labelled set for source-language detection, built from the GTK 3 message catalogs
 * Debian installs (/usr/share/locale/<locale>/LC_MESSAGES/gtk30.mo and
 * gtk30-properties.mo): real UI strings written by each language's translators, for all
 * 36 base languages of languages.ts. Two kinds:
 * - short: translated UI strings of 1–3 words (button and menu labels: "Save", "Print
 *   Preview"), the hard case;
 * - paragraph: four translated sentences of 40+ characters joined (~250 characters), the
 *   size of a help text or a paragraph of a page.
 * Untranslated entries (the translation equal to the English source) are skipped, and
 * format specifiers and mnemonics (`%s`, `_File`) are removed, as the formats do before
 * detection sees a segment. The selection is deterministic (every k-th entry).
 */
import { existsSync } from 'node:fs';
import { readMo } from '../../test/helpers/mo-files.js';

export const BASE_CODES = [
  'ar', 'bg', 'cs', 'da', 'de', 'el', 'en', 'es', 'et', 'fa', 'fi', 'fr', 'he', 'hi', 'hu', 'id', 'it', 'ja',
  'ko', 'lt', 'lv', 'nb', 'nl', 'pl', 'pt', 'ro', 'ru', 'sk', 'sl', 'sv', 'th', 'tr', 'uk', 'ur', 'vi', 'zh',
] as const;

const LOCALE_DIR: Readonly<Record<string, string>> = { zh: 'zh_CN' };

export interface Sample {
  readonly language: string;
  readonly kind: 'short' | 'paragraph';
  readonly text: string;
}

function clean(text: string): string {
  return text
    .replace(/%(\d+\$)?[-+ 0#]*\d*(\.\d+)?[lhzjt]*[sdifuxXcp%]/g, ' ')
    .replace(/_(?=\p{L})/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function catalogs(language: string): Map<string, string>[] {
  const dir = `/usr/share/locale/${LOCALE_DIR[language] ?? language}/LC_MESSAGES`;
  return ['gtk30.mo', 'gtk30-properties.mo']
    .map((name) => `${dir}/${name}`)
    .filter((path) => existsSync(path))
    .map(readMo);
}

const LETTER = /\p{L}/u;

export function labelledSet(options: { shortPerLanguage: number; paragraphsPerLanguage: number }): Sample[] {
  const samples: Sample[] = [];
  for (const language of BASE_CODES) {
    const pairs = catalogs(language).flatMap((catalog) => [...catalog]);
    // English: the sources themselves; every other language: its translations that differ from them.
    const texts = pairs
      .map(([id, text]) => (language === 'en' ? id : text !== id ? text : ''))
      .map(clean)
      .filter((text) => LETTER.test(text));
    const unique = [...new Set(texts)];
    const short = unique.filter((text) => {
      const words = text.split(' ').length;
      return words <= 3 && text.length >= 3 && text.length <= 30;
    });
    const sentences = unique.filter((text) => text.length >= 40 && text.length <= 160);
    for (const text of everyKth(short, options.shortPerLanguage)) samples.push({ language, kind: 'short', text });
    const picked = everyKth(sentences, options.paragraphsPerLanguage * 4);
    for (let i = 0; i + 4 <= picked.length; i += 4) samples.push({ language, kind: 'paragraph', text: picked.slice(i, i + 4).join(' ') });
  }
  return samples;
}

function everyKth<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  const step = items.length / count;
  return Array.from({ length: count }, (_, i) => items[Math.floor(i * step)]!);
}
