/**
 * Android `res/values/strings.xml` (docs/formats.md "android"): each `<string>`, each
 * `<string-array>` item and each `<plurals>` item is translated and written back in
 * place, escaped as aapt reads it (text.ts); names, comments, `<xliff:g>`, inline
 * markup, CDATA, entity references and the layout stay. A target's `<plurals>` has its
 * own quantities (quantities.ts): a kept item keeps its line, a missing one is inserted
 * before `other` with `other`'s translation, an extra one is removed with its line.
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
import { readAndroidText, writeAndroidText } from './text.js';
import type { AndroidText } from './text.js';

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
    const resources = readAndroid(content, limits);
    const out = new EntriesDocumentBuilder('android', content, limits);
    const eol = /\r\n/.test(content.slice(0, content.indexOf('\n') + 1)) ? '\r\n' : '\n';
    for (const resource of resources) {
      if (!resource.translatable) {
        const line = lineOf(content, resource.start, resource.end);
        out.edit({ start: line.start, end: line.end, render: () => '' });
        continue;
      }
      if (resource.kind === 'plurals' && resource.items.length > 0 && resource.items.every((item) => item.quantity !== undefined && isQuantity(item.quantity))) {
        plurals(out, content, resource, eol);
        continue;
      }
      resource.items.forEach((item, index) => {
        if (item.contentStart === item.end) return; // an empty `<item/>` stays as it is
        const key = resource.kind === 'string-array' ? `${resource.name}[${index}]` : resource.kind === 'plurals' ? `${resource.name}:${item.quantity ?? index}` : resource.name;
        inPlace(out, content, resource, item, key);
      });
    }
    return out.document();
  },
};

interface ReadValue {
  readonly index: number;
  readonly text: AndroidText | undefined;
  readonly plain: string;
}

function readValue(out: EntriesDocumentBuilder, content: string, resource: AndroidResource, item: AndroidItem, notes: readonly string[]): ReadValue {
  const text = readAndroidText(content.slice(item.contentStart, item.contentEnd));
  const plain = text ? text.text.replace(KEPT_CHARACTERS, ' ').trim() : '';
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

function inPlace(out: EntriesDocumentBuilder, content: string, resource: AndroidResource, item: AndroidItem, key: string): void {
  const notes = resource.comment ? [resource.comment] : [];
  const value = readValue(out, content, resource, item, notes);
  out.entry({ key, value: value.plain, notes });
  out.edit({ start: item.contentStart, end: item.contentEnd, render: (_target, translated) => written(out, content, item, value, translated) });
}

function plurals(out: EntriesDocumentBuilder, content: string, resource: AndroidResource, eol: string): void {
  const notes = resource.comment ? [resource.comment] : [];
  const items = resource.items;
  const quantities = items.map((item) => item.quantity!);
  const values = items.map((item, i) => readValue(out, content, resource, item, [...notes, `plural form: ${quantities[i]}`]));
  const forms: Record<string, string> = {};
  items.forEach((_, i) => (forms[quantities[i]!] = values[i]!.plain));
  // Missing quantities are made from `other` (or, in a file without one, the last item) and go before it (after the last).
  const templateIndex = quantities.includes('other') ? quantities.indexOf('other') : items.length - 1;
  const template = items[templateIndex]!;
  out.entry({ key: resource.name, value: forms.other ?? values[templateIndex]!.plain, notes, forms });
  const lines = items.map((item) => lineOf(content, item.start, item.end));
  const allWhole = lines.every((line) => line.whole);
  const openTag = content.slice(template.start, template.contentStart);
  const closeTag = content.slice(template.contentEnd, template.end);
  items.forEach((item, i) => {
    const line = allWhole ? lines[i]! : { start: item.start, end: item.end, indent: '', whole: false };
    const value = values[i]!;
    const quantity = quantities[i]!;
    out.edit({
      start: line.start,
      end: line.end,
      render: (target, translated) => {
        const wanted = targetQuantities(target.code);
        let added = '';
        if (i === templateIndex) {
          const text = written(out, content, template, values[templateIndex]!, translated);
          for (const missing of wanted.filter((q) => !quantities.includes(q))) {
            const tag = openTag.replace(/(\squantity\s*=\s*)(["'])[^"']*\2/, `$1$2${missing}$2`);
            added += allWhole ? `${lines[templateIndex]!.indent}${tag}${text}${closeTag}${eol}` : `${tag}${text}${closeTag}`;
          }
        }
        const own = wanted.includes(quantity) ? `${content.slice(line.start, item.contentStart)}${written(out, content, item, value, translated)}${content.slice(item.contentEnd, line.end)}` : '';
        return quantity === 'other' || !quantities.includes('other') ? (quantity === 'other' ? added + own : own + added) : own;
      },
    });
  });
}
