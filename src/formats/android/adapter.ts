/**
 * Android `res/values/strings.xml` (docs/formats.md "android"): each `<string>`, each
 * `<string-array>` item and each `<plurals>` item is translated and written back in
 * place, escaped as aapt reads it (text.ts); names, comments, `<xliff:g>`, inline
 * markup, CDATA, entity references and the layout stay. A target's `<plurals>` has its
 * own quantities (quantities.ts), each worded for its numbers: a kept item keeps its
 * line, a missing one is inserted before `other`, an extra one is removed with its line.
 * Resources marked `translatable="false"` are left out of the target file (decision 0079).
 */
import type { FormatAdapter } from '../format.js';
import { DEFAULT_DOCUMENT_LIMITS } from '../core/limits.js';
import { EntriesDocumentBuilder } from '../entries/document.js';
import { entryNote } from '../entries/note.js';
import { isProse } from '../json.js';
import { readAndroid } from './reader.js';
import type { AndroidItem, AndroidResource } from './reader.js';
import { isQuantity, targetQuantities } from './quantities.js';
import { joinAndroidTexts, readAndroidText, writeAndroidText } from './text.js';
import type { AndroidText } from './text.js';
import { entryLines } from '../entries/entry-lines.js';

/** What a reference or a value without words looks like once its kept chunks are set aside. */
const KEPT_CHARACTERS = /[\ue000-\uf8ff]/g;

interface Line {
  readonly start: number;
  readonly end: number;
  readonly indent: string;
  readonly whole: boolean;
}

/** The element's whole line(s) with the line end when nothing else is on them; else the element alone. */
function lineOf(content: string, start: number, end: number): Line {
  const lineStart = content.lastIndexOf('\n', start - 1) + 1;
  const indent = content.slice(lineStart, start);
  const newline = content.indexOf('\n', end);
  const lineEnd = newline === -1 ? content.length : newline + 1;
  if (/^[ \t]*$/.test(indent) && /^[ \t\r]*\n?$/.test(content.slice(end, lineEnd))) return { start: lineStart, end: lineEnd, indent, whole: true };
  return { start, end, indent: '', whole: false };
}

export const androidAdapter: FormatAdapter = {
  format: 'android',
  extract(content, limits = DEFAULT_DOCUMENT_LIMITS) {
    const { resources, rootContentEnd } = readAndroid(content, limits);
    const out = new EntriesDocumentBuilder('android', content, limits);
    out.entriesEnd = rootContentEnd;
    const eol = /\r\n/.test(content.slice(0, content.indexOf('\n') + 1)) ? '\r\n' : '\n';
    for (const resource of resources) {
      if (!resource.translatable) {
        const line = lineOf(content, resource.start, resource.end);
        out.edit({ start: line.start, end: line.end, render: () => '' });
        continue;
      }
      if (resource.kind === 'plurals' && plurals(out, content, resource, eol)) continue;
      const notes = resource.comment ? [resource.comment] : [];
      const values: string[] = [];
      if (resource.kind === 'plurals' && resource.items.length > 0 && resource.items.every((item) => item.quantity !== undefined && isQuantity(item.quantity))) {
        values.push(...pluralsWithoutOther(out, content, resource, notes, eol));
      } else {
        resource.items.forEach((item) => {
          if (item.contentStart === item.end) return; // an empty `<item/>` stays as it is
          values.push(inPlace(out, content, resource, item, notes).plain);
        });
      }
      if (resource.items.length === 0 || (resource.kind === 'string' && values.length === 0)) continue;
      // One entry per resource, whose translation is all its content: an array's items (or
      // a plurals' without `other`) come and go together, as they are one resource in a target.
      const whole = resource.kind === 'string' ? resource.items[0]! : resource;
      out.entry({
        key: resource.name,
        value: values.join('\n'),
        notes,
        region: [whole.contentStart, whole.contentEnd],
        block: entryLines(content, resource.headStart, resource.end),
      });
    }
    return out.document();
  },
};

/** A `<plurals>`' items' lines, or each item's own bytes when one of them shares its line with other markup. */
function itemLines(content: string, items: readonly AndroidItem[]): Line[] {
  const lines = items.map((item) => lineOf(content, item.start, item.end));
  return lines.every((line) => line.whole) ? lines : items.map((item) => ({ start: item.start, end: item.end, indent: '', whole: false }));
}

/** An item for quantity `missing` with `text`, written like `template` (whose line is `line`): on a line of its own when the template is. */
function addedItem(content: string, template: AndroidItem, missing: string, text: string, line: Line, eol: string): string {
  const tag = content.slice(template.start, template.contentStart).replace(/(\squantity\s*=\s*)(["'])[^"']*\2/, `$1$2${missing}$2`);
  const item = `${tag}${text}${content.slice(template.contentEnd, template.end)}`;
  return line.whole ? `${line.indent}${item}${eol}` : item;
}

interface ReadValue {
  readonly index: number;
  readonly text: AndroidText | undefined;
  readonly plain: string;
}

/** Whether a decoded text is something to translate: words, not a reference or a placeholder alone. */
function plainOf(text: AndroidText | undefined): string {
  return text ? text.text.replace(KEPT_CHARACTERS, ' ').trim() : '';
}

function readValue(out: EntriesDocumentBuilder, content: string, resource: AndroidResource, item: AndroidItem, notes: readonly string[]): ReadValue {
  const text = readAndroidText(content.slice(item.contentStart, item.contentEnd));
  const plain = plainOf(text);
  const translatable = text !== undefined && plain !== '' && isProse(plain);
  const index = out.value(translatable ? text.text : '', translatable ? text.spans : [], entryNote(resource.name, notes, plain));
  return { index, text: translatable ? text : undefined, plain };
}

/** The item's content for a target: the source bytes when unchanged, else the translation escaped. */
function written(out: EntriesDocumentBuilder, content: string, item: AndroidItem, value: ReadValue, translated: readonly string[]): string {
  const text = translated[value.index]!;
  if (!value.text || text === out.valueText(value.index)) return content.slice(item.contentStart, item.contentEnd);
  return writeAndroidText(text, value.text);
}

/** A `<string>` or an item written back in place. */
function inPlace(out: EntriesDocumentBuilder, content: string, resource: AndroidResource, item: AndroidItem, notes: readonly string[]): ReadValue {
  const value = readValue(out, content, resource, item, notes);
  out.edit({ start: item.contentStart, end: item.contentEnd, render: (_target, translated) => written(out, content, item, value, translated) });
  return value;
}

/**
 * A `<plurals>` without `other` (or with a form that cannot be one value): its items are
 * translated one by one; the target still gets exactly its quantities, a missing one
 * (`other` too) made from the last item's translation after it, an extra one removed with
 * its line. Answers the items' source texts.
 */
function pluralsWithoutOther(out: EntriesDocumentBuilder, content: string, resource: AndroidResource, notes: readonly string[], eol: string): string[] {
  const items = resource.items;
  const quantities = items.map((item) => item.quantity!);
  const lines = itemLines(content, items);
  const last = items[items.length - 1]!;
  const values = items.map((item) => (item.contentStart === item.end ? undefined : readValue(out, content, resource, item, [...notes, `plural form: ${item.quantity}`])));
  items.forEach((item, i) => {
    const line = lines[i]!;
    const value = values[i];
    out.edit({
      start: line.start,
      end: line.end,
      render: (target, translated) => {
        const wanted = targetQuantities(target.code);
        const own = !wanted.includes(quantities[i]!)
          ? ''
          : value === undefined
            ? content.slice(line.start, line.end)
            : `${content.slice(line.start, item.contentStart)}${written(out, content, item, value, translated)}${content.slice(item.contentEnd, line.end)}`;
        if (item !== last || values[i] === undefined) return own;
        const text = written(out, content, last, values[i]!, translated);
        const added = wanted.filter((q) => !quantities.includes(q)).map((missing) => addedItem(content, last, missing, text, line, eol));
        return own + added.join('');
      },
    });
  });
  return values.map((value) => value?.plain ?? '');
}

/**
 * A `<plurals>` with an `other` item, each item's text readable: its items are one plural
 * value (entries/document.ts), worded by the model per category (decision 0098). The
 * target's quantities are its whole-number categories plus `other`: a kept item keeps
 * its line, a missing one is inserted before `other` (written like `other`'s item, with
 * the text the translation gave its category), an extra one is removed with its line.
 * Answers false for any other `<plurals>`, whose items are then translated one by one.
 */
function plurals(out: EntriesDocumentBuilder, content: string, resource: AndroidResource, eol: string): boolean {
  const items = resource.items;
  const quantities = items.map((item) => item.quantity ?? '');
  if (!quantities.includes('other') || !quantities.every(isQuantity) || new Set(quantities).size !== quantities.length) return false;
  if (items[quantities.indexOf('other')]!.contentStart === items[quantities.indexOf('other')]!.end) return false;
  const texts: AndroidText[] = [];
  for (const item of items) {
    const text = readAndroidText(content.slice(item.contentStart, item.contentEnd), texts.reduce((n, t) => n + t.chunks.length, 0));
    if (text === undefined) return false;
    texts.push(text);
  }
  const notes = resource.comment ? [resource.comment] : [];
  const forms: Record<string, string> = {};
  items.forEach((_, i) => (forms[quantities[i]!] = plainOf(texts[i])));
  const otherIndex = quantities.indexOf('other');
  const translatable = Object.values(forms).some((plain) => plain !== '' && isProse(plain));
  const value = translatable
    ? out.pluralValue(
        quantities.map((category, i) => ({ category, text: texts[i]!.text, protectedSpans: texts[i]!.spans })),
        entryNote(resource.name, notes, forms.other!),
      )
    : undefined;
  out.entry({ key: resource.name, value: forms.other!, notes, forms, region: [resource.contentStart, resource.contentEnd], block: entryLines(out.source, resource.headStart, resource.end) });
  if (value === undefined) return true;
  const joined = joinAndroidTexts(texts);
  const lines = itemLines(content, items);
  const sourceForms = new Map(quantities.map((q, k) => [q, texts[k]!.text]));
  /** A category's content: the source's bytes when its text is the source's, else the translation escaped. */
  const contentOf = (category: string, rendered: ReadonlyMap<string, string>): string => {
    const text = rendered.get(category) ?? rendered.get('other') ?? texts[otherIndex]!.text;
    const own = quantities.indexOf(category);
    if (own >= 0 && text === texts[own]!.text) return content.slice(items[own]!.contentStart, items[own]!.contentEnd);
    return writeAndroidText(text, joined);
  };
  items.forEach((item, i) => {
    const line = lines[i]!;
    out.pluralFormEdit(line.start, line.end, value, {
      category: quantities[i]!,
      categories: quantities,
      wanted: targetQuantities,
      sourceForms,
      // An empty `<item …/>` has no content to write into: it stays as it is.
      own: (rendered) =>
        item.contentStart === item.end ? content.slice(line.start, line.end) : `${content.slice(line.start, item.contentStart)}${contentOf(quantities[i]!, rendered)}${content.slice(item.contentEnd, line.end)}`,
      added: (missing, rendered) => addedItem(content, items[otherIndex]!, missing, contentOf(missing, rendered), line, eol),
    });
  });
  return true;
}
