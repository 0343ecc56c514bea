/**
 * Flutter ARB files (docs/formats.md "arb"): a JSON object whose keys are message ids
 * with ICU MessageFormat values, `@id` metadata objects and `@@` file attributes. Each
 * message value is translated and written back in place as a JSON string (its
 * placeholders `{name}` and ICU `plural`/`select` skeletons are masked like any ICU, so
 * counted messages take the target's categories: decision 0061); `@@locale` becomes the
 * target in ARB's spelling (`pt_BR`); metadata, other `@@` attributes, key order and
 * layout stay. An `@id`'s `description` is the message's note for the model.
 * Read with jsonc-parser's tree, which carries each node's offset; never re-serialized.
 */
import { parseTree, printParseErrorCode } from 'jsonc-parser';
import type { Node, ParseError } from 'jsonc-parser';
import { checkJsonNesting, DEFAULT_DOCUMENT_LIMITS } from '../core/limits.js';
import type { FormatAdapter } from '../format.js';
import { EntriesDocumentBuilder } from '../entries/document.js';
import { entryNote } from '../entries/note.js';
import { isProse } from '../json.js';
import { invalidContent } from '../core/invalid.js';

function invalid(content: string, at: number, what: string): never {
  return invalidContent('a valid ARB file', content, at, what);
}

/** The string value of `property` in an object node, with its node. */
function member(object: Node | undefined, property: string): Node | undefined {
  if (object?.type !== 'object') return undefined;
  for (const pair of object.children ?? []) {
    if (pair.children?.[0]?.value === property) return pair.children[1];
  }
  return undefined;
}

export const arbAdapter: FormatAdapter = {
  format: 'arb',
  extract(content, limits = DEFAULT_DOCUMENT_LIMITS) {
    checkJsonNesting(content, limits.maxNestingDepth);
    const errors: ParseError[] = [];
    const root = parseTree(content, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    if (errors.length > 0) invalid(content, errors[0]!.offset, printParseErrorCode(errors[0]!.error));
    if (root?.type !== 'object') invalid(content, root?.offset ?? 0, 'expected a JSON object');
    const out = new EntriesDocumentBuilder('arb', content, limits);
    const pairs = root.children ?? [];
    const metadata = new Map<string, Node>();
    for (const pair of pairs) {
      const key = pair.children?.[0]?.value as string;
      if (key.startsWith('@') && !key.startsWith('@@')) metadata.set(key.slice(1), pair.children![1]!);
    }
    for (const pair of pairs) {
      const keyNode = pair.children![0]!;
      const valueNode = pair.children![1];
      const key = keyNode.value as string;
      if (!valueNode || valueNode.type !== 'string') continue;
      if (key === '@@locale') {
        // ARB and gen_l10n join a locale's parts with `_` (`pt_BR`, `zh_Hant_TW`).
        out.sourceLanguage = valueNode.value as string;
        out.edit({ start: valueNode.offset, end: valueNode.offset + valueNode.length, render: (target) => JSON.stringify(target.code.replaceAll('-', '_')) });
        continue;
      }
      if (key.startsWith('@')) continue;
      const text = valueNode.value as string;
      const description = member(metadata.get(key), 'description');
      const notes = description?.type === 'string' && typeof description.value === 'string' ? [description.value] : [];
      const value = out.value(isProse(text) ? text : '', [], entryNote(key, notes, text));
      const start = valueNode.offset + 1;
      const end = valueNode.offset + valueNode.length - 1;
      // For sync, the translation is the string's content; json-entry-merge.ts moves its members (decision 0100).
      out.entry({ key, value: text, notes, region: [start, end] });
      out.valueEdit(start, end, value, (translation) => JSON.stringify(translation).slice(1, -1));
    }
    return out.document();
  },
};
