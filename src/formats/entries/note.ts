/**
 * The note a locale entry's segments carry to the model (docs/models.md "Notes from
 * locale files"): the developer's notes always, and the entry's key when the value is
 * short enough that its meaning is in doubt (`Pay` under `checkout.pay_button` is a
 * button) and the key reads as words (not a hash, a number or a generated id).
 */

/** A value this short (in words, or in characters) gets its key as a note. */
export const SHORT_VALUE_WORDS = 4;
export const SHORT_VALUE_CHARS = 40;
/** Longer notes are cut: a note informs a translation, it is not one. */
export const MAX_NOTE_CHARS = 300;

/** A key that says something: a run of three letters, and not a hex hash or a UUID. */
function keyReadsAsWords(key: string): boolean {
  return /[A-Za-z]{3}/.test(key) && !/^[0-9a-f]{12,}$/i.test(key) && !/^[0-9a-f-]{32,36}$/i.test(key);
}

export function isShortValue(value: string): boolean {
  const trimmed = value.trim();
  return trimmed.length <= SHORT_VALUE_CHARS || trimmed.split(/\s+/).length <= SHORT_VALUE_WORDS;
}

/** The note for an entry, or undefined when there is nothing worth its tokens. */
export function entryNote(key: string | undefined, notes: readonly string[], value: string): string | undefined {
  const parts: string[] = [];
  if (key && keyReadsAsWords(key) && isShortValue(value)) parts.push(`key: ${key}`);
  for (const note of notes) if (note.trim()) parts.push(note.trim());
  if (parts.length === 0) return undefined;
  const joined = parts.join(' | ');
  return joined.length > MAX_NOTE_CHARS ? `${joined.slice(0, MAX_NOTE_CHARS - 1)}…` : joined;
}
