/**
 * Whether a string names a language the way locale files do (`en`, `pt-BR`, `pt_BR`,
 * `ca`, `sr-Latn`): a code CLDR has a name for, whether or not the API translates it.
 * CLDR's table (through Intl.DisplayNames) rather than a list of ours, so a Rails file
 * rooted at a language we do not list (`ca:`) is still known as one, and a root key that
 * is a word (`app:`, `admin:`) is not.
 */
export function isLanguageCode(text: string): boolean {
  if (!/^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/.test(text)) return false;
  // (Made per call: a module-level formatter would be module state, decision 0071.)
  const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
  try {
    return names.of(text.replaceAll('_', '-')) !== undefined;
  } catch {
    return false;
  }
}
