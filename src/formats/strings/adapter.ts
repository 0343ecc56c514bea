/**
 * Apple `.strings` (docs/formats.md "strings"): each pair's value is translated and
 * written back in place, quoted as the source quoted it (an unquoted word only while
 * its translation is still one); keys, comments and layout stay
 * byte for byte, and `%@`, `%1$@`, `%lld`, `%#@var@` are kept as marks. The comments
 * before a pair reach the model as its note. Values that are not prose (URLs,
 * identifiers) and the legacy `"key";` form (whose value is its key) are left as they are.
 */
import type { FormatAdapter } from '../format.js';
import { EntriesDocumentBuilder } from '../entries/document.js';
import { entryNote } from '../entries/note.js';
import { isProse } from '../json.js';
import { appleDirectiveSpans } from './directives.js';
import { readStrings, writeQuoted } from './reader.js';

/** What genstrings writes when the code gave no comment: nothing worth a model's tokens. */
const NO_COMMENT = /^No comment provided by engineer\.?$/i;

function translatorNotes(comments: readonly string[]): string[] {
  return comments.filter((comment) => comment !== '' && !NO_COMMENT.test(comment));
}

export const stringsAdapter: FormatAdapter = {
  format: 'strings',
  extract(content, limits) {
    const out = new EntriesDocumentBuilder('strings', content, limits);
    for (const pair of readStrings(content)) {
      const token = pair.value;
      if (!token) continue;
      const text = token.text;
      const notes = translatorNotes(pair.comments);
      // genstrings keys are often the English text itself: the key says nothing more then.
      const key = pair.key.text === text ? undefined : pair.key.text;
      const value = out.value(isProse(text) ? text : '', appleDirectiveSpans(text), entryNote(key, notes, text));
      out.entry({ key: pair.key.text, value: text, notes, region: [token.start, token.end] });
      const sourceBytes = content.slice(token.start, token.end);
      out.valueEdit(token.start, token.end, value, (translation) => writeQuoted(translation, token.quote, sourceBytes));
    }
    return out.document();
  },
};
