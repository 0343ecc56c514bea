/**
 * gettext PO/POT (docs/formats.md "po"): every entry's `msgid` (and `msgid_plural`) is
 * translated into its `msgstr` (`msgstr[N]`), written in place; the header's
 * `Language:` and `Plural-Forms:` become the target's (gettext's rule: whole numbers
 * only). Comments, flags, `msgctxt`, obsolete `#~` entries and the header's other fields
 * are kept byte for byte.
 */
import type { FormatAdapter } from '../format.js';
import { EntriesDocumentBuilder } from '../entries/document.js';
import type { EntryTarget } from '../entries/entry.js';
import { gettextLanguage, gettextPluralRule, pluralFormsHeader } from '../../plurals/gettext-forms.js';
import { readPo } from './reader.js';
import type { PoEntry, PoField } from './reader.js';
import { escapeLiteral, writeLiterals } from './strings.js';
import { checkedFormats, directiveSpans } from './directives.js';
import { entryNote } from '../entries/note.js';
import { decodePluralForms } from '../core/plural-forms-text.js';

/** gettext's separator of `msgctxt` and `msgid` in a catalog's keys. */
const CONTEXT_SEPARATOR = '\u0004';

const isMultiline = (field: PoField): boolean => field.literals.length > 1 && field.literals[0]!.text === '';

export const poAdapter: FormatAdapter = {
  format: 'po',
  extract(content, limits) {
    const { entries, eol } = readPo(content);
    const out = new EntriesDocumentBuilder('po', content, limits);
    for (const entry of entries) {
      const msgid = entry.msgid!;
      if (msgid.text === '' && !entry.msgctxt) header(out, entry, eol);
      else if (entry.msgidPlural) plural(out, entry, eol);
      else singular(out, entry, eol);
    }
    // `Language:` names the msgstrs' language: the msgids' only in a catalog of the source
    // language (its msgstrs empty or copies of their msgids), not in a translated one.
    if (entries.some(isTranslated)) out.sourceLanguage = undefined;
    return out.document();
  },
};

/** An entry whose msgstr holds a translation: neither empty nor its msgid. */
function isTranslated(entry: PoEntry): boolean {
  const msgid = entry.msgid!;
  if (msgid.text === '' && !entry.msgctxt) return false;
  return entry.msgstr.some((field, i) => field.text !== '' && field.text !== (i === 0 ? msgid.text : entry.msgidPlural?.text));
}

function notesOf(entry: PoEntry): string[] {
  return entry.msgctxt ? [...entry.notes, `context: ${entry.msgctxt.text}`] : entry.notes;
}

function keyOf(entry: PoEntry): string {
  return entry.msgctxt ? `${entry.msgctxt.text}${CONTEXT_SEPARATOR}${entry.msgid!.text}` : entry.msgid!.text;
}

function singular(out: EntriesDocumentBuilder, entry: PoEntry, eol: string): void {
  const msgid = entry.msgid!;
  const msgstr = entry.msgstr[0]!;
  const value = out.value(msgid.text, directiveSpans(msgid.text, checkedFormats(entry.flags)), entryNote(undefined, notesOf(entry), msgid.text));
  const multiline = isMultiline(msgid);
  out.entry({ key: keyOf(entry), value: msgid.text, notes: notesOf(entry), region: [msgstr.keywordStart, msgstr.end], translated: msgstr.text !== '' });
  out.edit({ start: msgstr.start, end: msgstr.end, render: (_target, translated) => writeLiterals(translated[value]!, multiline, eol) });
}

/**
 * `msgstr[0…n-1]` for the target's n: `msgid` and `msgid_plural` are one plural value,
 * forms `one` and `other` (entries/document.ts), which translation/ shapes into the
 * target's CLDR categories, each worded for its numbers (Russian's `few` for 2–4, 22–24,
 * `many` for 0, 5–20); each gettext form takes the text of its CLDR category
 * (`formCategories`). A `one` form that also counts 21, 31, … while the source's
 * singular lacks a directive of the plural ("One file" / "%d files") takes the plural's
 * `other` text: msgfmt -c refuses it without the `%d`. The source's `msgstr[N]` lines
 * are replaced as a block.
 */
function plural(out: EntriesDocumentBuilder, entry: PoEntry, eol: string): void {
  const msgid = entry.msgid!;
  const msgidPlural = entry.msgidPlural!;
  const formats = checkedFormats(entry.flags);
  const note = entryNote(undefined, notesOf(entry), msgid.text);
  const oneSpans = directiveSpans(msgid.text, formats);
  const otherSpans = directiveSpans(msgidPlural.text, formats);
  const value = out.pluralValue(
    [
      { category: 'one', text: msgid.text, protectedSpans: oneSpans },
      { category: 'other', text: msgidPlural.text, protectedSpans: otherSpans },
    ],
    note,
  );
  const singularHasDirectives = sameDirectives(msgid.text, oneSpans, msgidPlural.text, otherSpans);
  const multiline = isMultiline(msgid) || isMultiline(msgidPlural);
  const first = entry.msgstr[0]!;
  const last = entry.msgstr[entry.msgstr.length - 1]!;
  out.entry({
    key: keyOf(entry),
    value: msgid.text,
    notes: notesOf(entry),
    forms: { one: msgid.text, other: msgidPlural.text },
    region: [first.keywordStart, last.end],
    translated: entry.msgstr.every((field) => field.text !== ''),
  });
  const indent = first.keywordStart - lineStartOf(out.source, first.keywordStart);
  out.edit({
    start: first.keywordStart,
    end: last.end,
    render(target, translated) {
      const forms = decodePluralForms(translated[value]!);
      const other = forms.get('other') ?? msgidPlural.text;
      const rule = gettextPluralRule(target.code);
      const categories = rule?.formCategories ?? ['one', 'other'];
      const lines = categories.map((category, index) => {
        const onlyOne = rule === undefined ? index === 0 : rule.examples(index, 2).length === 1;
        const text = category === 'one' && !onlyOne && !singularHasDirectives ? other : forms.get(category) ?? other;
        return `msgstr[${index}] ${writeLiterals(text, multiline, eol)}`;
      });
      return lines.join(eol + ' '.repeat(indent));
    },
  });
}

/** Whether two texts hold the same format directives (as sets of their spelling). */
function sameDirectives(a: string, aSpans: readonly (readonly [number, number])[], b: string, bSpans: readonly (readonly [number, number])[]): boolean {
  const spelled = (text: string, spans: readonly (readonly [number, number])[]): string =>
    spans
      .map(([start, end]) => text.slice(start, end))
      .sort()
      .join('\u0000');
  return spelled(a, aSpans) === spelled(b, bSpans);
}

function lineStartOf(source: string, at: number): number {
  return source.lastIndexOf('\n', at - 1) + 1;
}

/** Header fields a target changes, by name as gettext spells it. */
const LANGUAGE_FIELD = /^Language:/i;
const PLURAL_FORMS_FIELD = /^Plural-Forms:/i;
/**
 * A charset other than UTF-8 (a template's `CHARSET`, an old `ISO-8859-3`): the content
 * arrived as Unicode text and the answer is UTF-8, so the header must say so.
 */
const CHARSET_PLACEHOLDER = /^(Content-Type:.*charset=)(?!UTF-8\b)[\w.:-]+/i;

/**
 * The header entry (`msgid ""`): `Language:` and `Plural-Forms:` are set for the target,
 * each in the string that holds it, or added after the header's last string when missing;
 * a `charset=` other than UTF-8 (a template's `CHARSET`) becomes `UTF-8`, as the answer
 * is. Every other field stays.
 */
function header(out: EntriesDocumentBuilder, entry: PoEntry, eol: string): void {
  const msgstr = entry.msgstr[0];
  if (!msgstr || entry.plural) return;
  // (A template's `Language: \n` names nothing.)
  out.sourceLanguage = /^Language:[ \t]*(\S+)/im.exec(msgstr.text)?.[1];
  const language = (target: EntryTarget): string => `Language: ${gettextLanguage(target.code)}\\n`;
  const pluralForms = (target: EntryTarget): string | undefined => {
    const rule = gettextPluralRule(target.code);
    return rule && `Plural-Forms: ${pluralFormsHeader(rule)}\\n`;
  };
  let hasLanguage = false;
  let hasPluralForms = false;
  for (const literal of msgstr.literals) {
    const text = literal.text;
    if (LANGUAGE_FIELD.test(text) && isOneField(text)) {
      hasLanguage = true;
      out.edit({ start: literal.start, end: literal.end, render: (target) => `"${language(target)}"` });
    } else if (PLURAL_FORMS_FIELD.test(text) && isOneField(text)) {
      hasPluralForms = true;
      const source = out.source.slice(literal.start, literal.end);
      out.edit({ start: literal.start, end: literal.end, render: (target) => (pluralForms(target) === undefined ? source : `"${pluralForms(target)}"`) });
    } else if (CHARSET_PLACEHOLDER.test(text) && isOneField(text)) {
      out.edit({ start: literal.start, end: literal.end, render: () => `"${escapeLiteral(text.replace(CHARSET_PLACEHOLDER, '$1UTF-8'))}"` });
    }
  }
  if (hasLanguage && hasPluralForms) return;
  const indent = ' '.repeat(msgstr.keywordStart - lineStartOf(out.source, msgstr.keywordStart));
  const last = msgstr.literals[msgstr.literals.length - 1]!;
  // (A header written on one line, `msgstr "Language: de\n…"`, is rare; its missing fields are added on lines of their own.)
  out.edit({
    start: last.end,
    end: last.end,
    render(target) {
      let added = '';
      if (!hasLanguage) added += `${eol}${indent}"${language(target)}"`;
      const forms = hasPluralForms ? undefined : pluralForms(target);
      if (forms !== undefined) added += `${eol}${indent}"${forms}"`;
      return added;
    },
  });
}

/** One header field in one string (`Language: de\n`), not several packed together. */
function isOneField(text: string): boolean {
  const newline = text.indexOf('\n');
  return newline === -1 || newline === text.length - 1;
}
