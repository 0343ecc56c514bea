/**
 * A locale file's plural forms as one translatable text (gettext `msgid`/`msgid_plural`,
 * a Rails plural hash): each form is its category's name, FORM_START, its text, FORM_END.
 * Its segment has one branch pair per form (style `entries`), opened by the name and
 * FORM_START and closed by FORM_END, so translation/ gives each target exactly its own
 * categories and tells the model which numbers each one counts (plural-shape.ts,
 * engines/prompt.ts); the rendered text is read back into a text per category.
 */

/** Between a form's category name and its text; a control character no locale text holds. */
export const FORM_START = '\u0001';
/** After a form's text. */
export const FORM_END = '\u0002';

/** Whether a text can be a form's text (it holds neither separator). */
export const isFormText = (text: string): boolean => !text.includes(FORM_START) && !text.includes(FORM_END);

export function encodePluralForms(forms: readonly (readonly [category: string, text: string])[]): string {
  return forms.map(([category, text]) => `${category}${FORM_START}${text}${FORM_END}`).join('');
}

const CATEGORY_BEFORE_START = /[a-z]+$/;

/**
 * The text of each category in a rendered plural text; a category written twice keeps
 * its first text (a source `zero` kept before a `zero` the target also counts). What an
 * engine wrote outside the forms (the pseudo engine's right-to-left marks around the
 * whole text) belongs to no form and is left out.
 */
export function decodePluralForms(rendered: string): Map<string, string> {
  const forms = new Map<string, string>();
  for (const form of rendered.split(FORM_END)) {
    const at = form.indexOf(FORM_START);
    if (at < 0) continue;
    const category = CATEGORY_BEFORE_START.exec(form.slice(0, at))?.[0];
    if (category !== undefined && !forms.has(category)) forms.set(category, form.slice(at + 1));
  }
  return forms;
}
