/**
 * Java `.properties` bundles (docs/formats.md "properties"): values are translated and
 * written back in place; keys, comments, separators and line continuations (kept as
 * marks where the source had them) stay. A translation is escaped as Properties.load
 * reads it; characters outside ASCII are written `\uXXXX` when the source file has no
 * raw non-ASCII character (a bundle read as ISO-8859-1, Java 8's default).
 */
import type { FormatAdapter } from '../format.js';
import { EntriesDocumentBuilder } from '../entries/document.js';
import { isProse } from '../json.js';
import { CONTINUATION, readProperties } from './reader.js';
import { choiceSpans } from './message-format.js';
import { entryNote } from '../entries/note.js';

const NON_ASCII = /[^\x00-\x7f]/;

export const propertiesAdapter: FormatAdapter = {
  format: 'properties',
  extract(content, limits) {
    const out = new EntriesDocumentBuilder('properties', content, limits);
    const asciiOnly = !NON_ASCII.test(content.charCodeAt(0) === 0xfeff ? content.slice(1) : content);
    for (const entry of readProperties(content)) {
      const choices = choiceSpans(entry.value);
      const spans = [...choices];
      if (entry.continuations.length > 0) {
        for (let at = entry.value.indexOf(CONTINUATION); at !== -1; at = entry.value.indexOf(CONTINUATION, at + 1)) {
          if (!choices.some(([start, end]) => at >= start && at < end)) spans.push([at, at + 1]);
        }
        spans.sort((a, b) => a[0] - b[0]);
      }
      // Values that are not prose (URLs, paths, identifiers, numbers) stay, as in JSON.
      const text = entry.value.replaceAll(CONTINUATION, '');
      const value = out.value(isProse(text) ? entry.value : '', spans, entryNote(entry.key, entry.comments, text));
      out.entry({ key: entry.key, value: text, notes: entry.comments, region: [entry.start, entry.end], translated: text !== '' });
      // A source that writes its tabs raw (Xerces' message bundles end values with one) gets them raw back.
      const rawTabs = content.slice(entry.start, entry.end).includes('\t');
      out.valueEdit(entry.start, entry.end, value, (translation) => writeValue(translation, entry.continuations, asciiOnly, rawTabs));
    }
    return out.document();
  },
};

/** A value as Properties.load reads it back; each continuation mark becomes its source bytes again. */
function writeValue(text: string, continuations: readonly string[], asciiOnly: boolean, rawTabs = false): string {
  let out = '';
  let continuation = 0;
  // Where the reader drops white space: the start of the value and of each continued line.
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const code = text.charCodeAt(i);
    if (c === CONTINUATION && continuations.length > 0) {
      out += continuations[continuation++] ?? '';
      lineStart = out.length;
      continue;
    }
    if (c === '\\') out += '\\\\';
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\t') out += rawTabs && out.length > lineStart ? '\t' : '\\t';
    else if (c === '\f') out += '\\f';
    // Leading white space would be dropped by the reader.
    else if (c === ' ' && out === '') out += '\\ ';
    else if (code < 0x20 || code === 0x7f || (asciiOnly && code > 0x7e)) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += c;
  }
  return out;
}
