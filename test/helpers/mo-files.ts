/**
 * GNU message catalogs (.mo) as Debian installs them under /usr/share/locale: real text
 * in many languages written by each language's translators, for detection tests and
 * bench/detection.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** msgid → msgstr of a GNU .mo file (contexts dropped, plural forms: the first). */
export function readMo(path: string): Map<string, string> {
  const buffer = readFileSync(path);
  const magic = buffer.readUInt32LE(0);
  const read = magic === 0x950412de ? buffer.readUInt32LE.bind(buffer) : buffer.readUInt32BE.bind(buffer);
  const count = read(8);
  const originals = read(12);
  const translations = read(16);
  const entries = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    const string = (table: number) => buffer.toString('utf8', read(table + i * 8 + 4), read(table + i * 8 + 4) + read(table + i * 8));
    const id = string(originals).split('\u0004').pop()!.split('\u0000')[0]!;
    const text = string(translations).split('\u0000')[0]!;
    if (id) entries.set(id, text);
  }
  return entries;
}

/**
 * Up to `perCatalog` translations, evenly spaced, of each catalog installed under
 * /usr/share/locale (every locale), of those `keep` accepts.
 */
export function installedTranslations(perCatalog: number, keep: (text: string) => boolean = () => true): string[] {
  const texts: string[] = [];
  for (const locale of readdirSync('/usr/share/locale')) {
    let catalogs: string[];
    try {
      catalogs = readdirSync(`/usr/share/locale/${locale}/LC_MESSAGES`).filter((name) => name.endsWith('.mo'));
    } catch {
      continue;
    }
    for (const catalog of catalogs) {
      const translations = [...readMo(`/usr/share/locale/${locale}/LC_MESSAGES/${catalog}`).values()].filter(keep);
      const step = Math.max(1, Math.floor(translations.length / perCatalog));
      for (let i = 0; i < translations.length && i / step < perCatalog; i += step) texts.push(translations[i]!);
    }
  }
  return texts;
}
