/**
 * Apple `.stringsdict` (docs/formats.md "stringsdict"): for each entry, the text of its
 * `NSStringLocalizedFormatKey` outside the `%#@var@` tokens and each plural form of its
 * variables are translated in place. A plural variable (`NSStringPluralRuleType`) gets
 * the target's full CLDR categories (CONTRACT §5): a kept form keeps its lines, a missing
 * one is inserted before `other` (written like `other`), each form worded for its
 * numbers by the model (decision 0098), an extra one is removed with its lines; a
 * source `zero` stays in every target (Apple uses it for a count of 0 in every language). The plist structure, keys and
 * `NSStringFormatValueTypeKey` are kept byte for byte.
 */
import type { FormatAdapter } from '../format.js';
import { DEFAULT_DOCUMENT_LIMITS } from '../core/limits.js';
import { EntriesDocumentBuilder, targetCategories } from '../entries/document.js';
import { entryNote } from '../entries/note.js';
import { appleDirectiveSpans } from '../strings/directives.js';
import { isPluralCategory } from '../../plurals/index.js';
import { isFormText } from '../core/plural-forms-text.js';
import { dictPairs, escapeXmlText, invalidPlist, readPlist } from './plist.js';
import type { DictPair, PlistNode } from './plist.js';
import { entryLines } from '../entries/entry-lines.js';

const FORMAT_KEY = 'NSStringLocalizedFormatKey';
const SPEC_TYPE_KEY = 'NSStringFormatSpecTypeKey';
const PLURAL_RULE = 'NSStringPluralRuleType';

export const stringsdictAdapter: FormatAdapter = {
  format: 'stringsdict',
  extract(content, given) {
    const limits = given ?? DEFAULT_DOCUMENT_LIMITS;
    const out = new EntriesDocumentBuilder('stringsdict', content, limits);
    const plist = readPlist(content, limits);
    const root = plist.children[0];
    if (!root || root.name !== 'dict') invalidPlist(content, root?.start ?? plist.start, 'expected a <dict> inside <plist>');
    if (root.contentEnd < root.end) out.entriesEnd = root.contentEnd;
    for (const { key, value } of dictPairs(content, root)) {
      if (value.name !== 'dict') continue;
      entry(out, key, value);
    }
    return out.document();
  },
};

function stringValue(out: EntriesDocumentBuilder, node: PlistNode, note: string | undefined): number | undefined {
  if (node.name !== 'string' || node.contentStart === node.contentEnd) return undefined;
  const index = out.value(node.text, appleDirectiveSpans(node.text), note);
  out.valueEdit(node.contentStart, node.contentEnd, index, escapeXmlText);
  return index;
}

/** One entry: its format key's text and its variables; for sync, its translation is its whole dict (decision 0099). */
function entry(out: EntriesDocumentBuilder, keyNode: PlistNode, dict: PlistNode): void {
  const key = keyNode.text;
  const pairs = dictPairs(out.source, dict);
  const format = pairs.find((pair) => pair.key.text === FORMAT_KEY);
  if (format && format.value.name === 'string') stringValue(out, format.value, entryNote(key, [], format.value.text));
  let forms: Record<string, string> | undefined;
  for (const pair of pairs) {
    if (pair.value.name !== 'dict') continue;
    const variable = dictPairs(out.source, pair.value);
    const spec = variable.find((p) => p.key.text === SPEC_TYPE_KEY);
    if (spec?.value.text !== PLURAL_RULE) {
      // A device-specific variable (NSStringDeviceSpecificRuleType: iphone, ipad, mac…) or another rule: its texts are translated, its cases kept.
      for (const form of variable) {
        if (!form.key.text.startsWith('NS')) stringValue(out, form.value, entryNote(key, [`${pair.key.text}: ${form.key.text}`], form.value.text));
      }
      continue;
    }
    const variableForms = pluralVariable(out, key, pair.value, variable);
    forms ??= variableForms;
  }
  out.entry({
    key,
    value: format?.value.text ?? '',
    notes: [],
    ...(forms ? { forms } : {}),
    region: [dict.contentStart, dict.contentEnd],
    block: entryLines(out.source, keyNode.start, dict.end),
  });
}

/**
 * One plural variable's forms. With an `other` form, they are one plural value
 * (entries/document.ts) that the model words per category (decision 0098). Each form's
 * pair (from the end of the element before its `<key>`, so its indentation goes with it,
 * to its `</string>`) is one edit, which writes the forms the target adds before
 * `other`'s, each with the text the translation gave its category.
 */
function pluralVariable(out: EntriesDocumentBuilder, key: string, dict: PlistNode, variable: readonly DictPair[]): Record<string, string> {
  const source = out.source;
  const formPairs = variable.filter((pair) => isPluralCategory(pair.key.text) && pair.value.name === 'string');
  const forms: Record<string, string> = {};
  for (const pair of formPairs) forms[pair.key.text] = pair.value.text;
  const other = formPairs.find((pair) => pair.key.text === 'other');
  const has = new Set(formPairs.map((pair) => pair.key.text));
  if (!other || has.size !== formPairs.length || !formPairs.every((pair) => isFormText(pair.value.text))) {
    // Not a complete plural: its forms are translated, its shape left as it is.
    for (const pair of formPairs) stringValue(out, pair.value, entryNote(key, [`plural form: ${pair.key.text}`], pair.value.text));
    return forms;
  }
  const previousEnd = (node: PlistNode): number => {
    const index = dict.children.indexOf(node);
    return index > 0 ? dict.children[index - 1]!.end : dict.contentStart;
  };
  const value = out.pluralValue(
    formPairs.map((pair) => ({ category: pair.key.text, text: pair.value.text, protectedSpans: appleDirectiveSpans(pair.value.text) })),
    entryNote(key, [], other.value.text),
  );
  const otherStart = previousEnd(other.key);
  // `<key>other</key>…<string>` and `</string>` of the other form: the template of an added form.
  const otherHead = source.slice(otherStart, other.value.contentStart);
  const otherTail = source.slice(other.value.contentEnd, other.value.end);
  const keyAt = other.key.start - otherStart;
  const keyLength = other.key.end - other.key.start;
  /** A category's content: the source's bytes when its text is the source's, else the translation escaped. */
  const written = (category: string, rendered: ReadonlyMap<string, string>): string => {
    const text = rendered.get(category) ?? rendered.get('other') ?? other.value.text;
    const pair = formPairs.find((p) => p.key.text === category);
    return pair !== undefined && text === pair.value.text ? source.slice(pair.value.contentStart, pair.value.contentEnd) : escapeXmlText(text);
  };
  const sourceForms = new Map(Object.entries(forms));
  for (const pair of formPairs) {
    const category = pair.key.text;
    const start = previousEnd(pair.key);
    const head = source.slice(start, pair.value.contentStart);
    const tail = source.slice(pair.value.contentEnd, pair.value.end);
    out.pluralFormEdit(start, pair.value.end, value, {
      category,
      categories: [...has],
      wanted: (code) => targetCategories(code, has.has('zero')),
      sourceForms,
      own: (rendered) => `${head}${written(category, rendered)}${tail}`,
      added: (missing, rendered) => `${otherHead.slice(0, keyAt)}<key>${missing}</key>${otherHead.slice(keyAt + keyLength)}${written(missing, rendered)}${otherTail}`,
    });
  }
  return forms;
}
