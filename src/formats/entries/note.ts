/**
 * The note a locale entry's segments carry to the model (docs/models.md "Notes from
 * locale files"): the developer's notes always, and the entry's key when the value is
 * short enough that its meaning is in doubt (`Pay` under `checkout.pay_button` is a
 * button) and the key reads as words (not a hash, a number or a generated id).
 */

/**
 * A value this short (in words, and in characters) gets its key as a note: one or two
 * words, where a word alone is ambiguous ("Pay", "Open file"). Measured on the shared
 * corpus (docs/benchmarks.md, issue 33): keys for every value up to 4 words or 40
 * characters cost more tokens than the strings themselves (112 % in properties, 182 % in
 * YAML); this rule and the key's last two parts cost a fraction of that.
 */
const SHORT_VALUE_WORDS = 2;
const SHORT_VALUE_CHARS = 24;
/** The key's last parts that are sent (`store.checkout.pay_button` → `checkout.pay_button`). */
const KEY_PARTS = 2;
/** Longer notes are cut: a note informs a translation, it is not one. */
const MAX_NOTE_CHARS = 300;

/** A key that says something: a run of three letters, and not a hex hash or a UUID. */
function keyReadsAsWords(key: string): boolean {
  return /[A-Za-z]{3}/.test(key) && !/^[0-9a-f]{12,}$/i.test(key) && !/^[0-9a-f-]{32,36}$/i.test(key);
}

export function isShortValue(value: string): boolean {
  const trimmed = value.trim();
  return trimmed.length <= SHORT_VALUE_CHARS && trimmed.split(/\s+/).length <= SHORT_VALUE_WORDS;
}

/** Letters and digits, lower case: `Sign in`, `sign_in` and `signIn` read alike. */
const bare = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/**
 * The note for an entry, or undefined when there is nothing worth its tokens. A key whose
 * last part is the value itself (`"Save": "Save"`, `sign_in` for "Sign in") says nothing
 * the value does not.
 */
export function entryNote(key: string | undefined, notes: readonly string[], value: string): string | undefined {
  const parts: string[] = [];
  if (key && isShortValue(value) && keyReadsAsWords(key)) {
    const sent = key.split('.').slice(-KEY_PARTS);
    if (bare(sent[sent.length - 1]!) !== bare(value)) parts.push(`key: ${sent.join('.')}`);
  }
  for (const note of notes) if (note.trim()) parts.push(note.trim());
  if (parts.length === 0) return undefined;
  const joined = parts.join(' | ');
  return joined.length > MAX_NOTE_CHARS ? `${joined.slice(0, MAX_NOTE_CHARS - 1)}…` : joined;
}
