/**
 * GNU message catalogs (.mo) as Debian installs them under /usr/share/locale: real text
 * in many languages written by each language's translators, for detection tests and
 * bench/detection.
 */
import { readFileSync } from 'node:fs';

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
