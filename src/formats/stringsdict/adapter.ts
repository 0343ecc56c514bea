/**
 * Apple `.stringsdict` (docs/formats.md "stringsdict"): for each entry, the text of its
 * `NSStringLocalizedFormatKey` outside the `%#@var@` tokens and each plural form of its
 * variables are translated in place. A plural variable (`NSStringPluralRuleType`) gets
 * the target's full CLDR categories (CONTRACT §5): a kept form keeps its lines, a missing
 * one is inserted before `other` (written like `other`, with `other`'s translation), an
 * extra one is removed with its lines; a source `zero` stays in every target (Apple uses
 * it for a count of 0 in every language). The plist structure, keys and
 * `NSStringFormatValueTypeKey` are kept byte for byte.
 */
import type { FormatAdapter } from '../format.js';
import { DEFAULT_DOCUMENT_LIMITS } from '../core/limits.js';
import { EntriesDocumentBuilder } from '../entries/document.js';
import { entryNote } from '../entries/note.js';
import { appleDirectiveSpans } from '../strings/directives.js';
import { pluralCategories } from '../../plurals/index.js';
import { dictPairs, escapeXmlText, invalidPlist, readPlist } from './plist.js';
import type { DictPair, PlistNode } from './plist.js';

const FORMAT_KEY = 'NSStringLocalizedFormatKey';
const SPEC_TYPE_KEY = 'NSStringFormatSpecTypeKey';
const PLURAL_RULE = 'NSStringPluralRuleType';
const CATEGORIES: ReadonlySet<string> = new Set(['zero', 'one', 'two', 'few', 'many', 'other']);

/** The categories a target writes: CLDR's cardinal ones, with a source `zero` kept. */
export function appleCategories(code: string, sourceHasZero: boolean): readonly string[] {
  const categories = pluralCategories(code, 'cardinal');
  return sourceHasZero && !categories.includes('zero') ? ['zero', ...categories] : categories;
}

export const stringsdictAdapter: FormatAdapter = {
  format: 'stringsdict',
  extract(content, given) {
    const limits = given ?? DEFAULT_DOCUMENT_LIMITS;
    const out = new EntriesDocumentBuilder('stringsdict', content, limits);
    const plist = readPlist(content, limits);
    const root = plist.children[0];
    if (!root || root.name !== 'dict') invalidPlist(content, root?.start ?? plist.start, 'expected a <dict> inside <plist>');
    for (const { key, value } of dictPairs(content, root)) {
      if (value.name !== 'dict') continue;
      entry(out, key.text, dictPairs(content, value));
    }
    return out.document();
  },
};

function stringValue(out: EntriesDocumentBuilder, node: PlistNode, note: string | undefined): number | undefined {
  if (node.name !== 'string' || node.contentStart === node.contentEnd) return undefined;
  const index = out.value(node.text, appleDirectiveSpans(node.text), note);
  const sourceBytes = out.source.slice(node.contentStart, node.contentEnd);
  out.edit({
    start: node.contentStart,
    end: node.contentEnd,
    render: (_target, translated) => (translated[index] === out.valueText(index) ? sourceBytes : escapeXmlText(translated[index]!)),
  });
  return index;
}

function entry(out: EntriesDocumentBuilder, key: string, pairs: readonly DictPair[]): void {
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
  out.entry({ key, value: format?.value.text ?? '', notes: [], ...(forms ? { forms } : {}) });
}

/**
 * One plural variable's forms. Each form's pair (from the end of the element before its
 * `<key>`, so its indentation goes with it, to its `</string>`) is one edit, which writes
 * the forms the target adds before `other`'s.
 */
function pluralVariable(out: EntriesDocumentBuilder, key: string, dict: PlistNode, variable: readonly DictPair[]): Record<string, string> {
  const source = out.source;
  const formPairs = variable.filter((pair) => CATEGORIES.has(pair.key.text) && pair.value.name === 'string');
  const forms: Record<string, string> = {};
  for (const pair of formPairs) forms[pair.key.text] = pair.value.text;
  const other = formPairs.find((pair) => pair.key.text === 'other');
  const has = new Set(formPairs.map((pair) => pair.key.text));
  if (!other) {
    // Not a complete plural: its forms are translated, its shape left as it is.
    for (const pair of formPairs) stringValue(out, pair.value, entryNote(key, [`plural form: ${pair.key.text}`], pair.value.text));
    return forms;
  }
  const previousEnd = (node: PlistNode): number => {
    const index = dict.children.indexOf(node);
    return index > 0 ? dict.children[index - 1]!.end : dict.contentStart;
  };
  const indexes = new Map<string, number>();
  for (const pair of formPairs) {
    const text = pair.value.text;
    indexes.set(pair.key.text, out.value(text, appleDirectiveSpans(text), entryNote(key, [`plural form: ${pair.key.text}`], text)));
  }
  const otherStart = previousEnd(other.key);
  // `<key>other</key>…<string>` and `</string>` of the other form: the template of an added form.
  const otherHead = source.slice(otherStart, other.value.contentStart);
  const otherTail = source.slice(other.value.contentEnd, other.value.end);
  const keyAt = other.key.start - otherStart;
  const keyLength = other.key.end - other.key.start;
  const written = (category: string, translated: readonly string[]): string => {
    const index = indexes.get(category)!;
    const pair = formPairs.find((p) => p.key.text === category)!;
    return translated[index] === out.valueText(index) ? source.slice(pair.value.contentStart, pair.value.contentEnd) : escapeXmlText(translated[index]!);
  };
  for (const pair of formPairs) {
    const category = pair.key.text;
    const start = previousEnd(pair.key);
    const head = source.slice(start, pair.value.contentStart);
    const tail = source.slice(pair.value.contentEnd, pair.value.end);
    out.edit({
      start,
      end: pair.value.end,
      render: (target, translated) => {
        const wanted = appleCategories(target.code, has.has('zero'));
        let added = '';
        if (category === 'other') {
          for (const missing of wanted.filter((c) => !has.has(c))) {
            added += `${otherHead.slice(0, keyAt)}<key>${missing}</key>${otherHead.slice(keyAt + keyLength)}${written('other', translated)}${otherTail}`;
          }
        }
        if (!wanted.includes(category)) return added;
        return `${added}${head}${written(category, translated)}${tail}`;
      },
    });
  }
  return forms;
}
