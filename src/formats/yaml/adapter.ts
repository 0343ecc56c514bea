/**
 * Rails / Symfony / Hugo i18n YAML (docs/formats.md "yaml"): string scalars are
 * translated and written back in place, in their own style where the text allows (see
 * scalars.ts); keys, comments, anchors, aliases, tags and layout stay. A root mapping
 * with one key that is a language code (`en:`) gets the target's code. Rails plural
 * hashes get the target's categories (plural-hash.ts). Read with the `yaml` package's
 * parser, whose nodes carry their source ranges; its writer is never used (it reflows).
 */
import { isAlias, isMap, isScalar, isSeq, parseAllDocuments } from 'yaml';
import type { Document, Node, Pair, Scalar, YAMLMap } from 'yaml';
import { ServiceError } from '../../errors.js';
import { isLanguageCode } from '../entries/language-code.js';
import type { DocumentLimits } from '../core/limits.js';
import { DEFAULT_DOCUMENT_LIMITS, tooComplex } from '../core/limits.js';
import type { FormatAdapter } from '../format.js';
import { EntriesDocumentBuilder, targetCategories } from '../entries/document.js';
import { isProse } from '../json.js';
import { isPluralHash } from './plural-hash.js';
import { entryNote } from '../entries/note.js';
import { writeBlockLines, writeFlowScalar } from './scalars.js';
import { foldedLines, LINE_BREAK_MARK } from './folded-lines.js';
import type { FoldedLines } from './folded-lines.js';
import type { ScalarStyle } from './scalars.js';
import type { LocaleEntry } from '../entries/entry.js';

export const yamlAdapter: FormatAdapter = {
  format: 'yaml',
  extract(content, limits = DEFAULT_DOCUMENT_LIMITS) {
    const out = new EntriesDocumentBuilder('yaml', content, limits);
    const reader = new YamlReader(out, content, limits);
    checkNesting(content, limits.maxNestingDepth);
    let parsed: Document.Parsed[] | { readonly empty: true };
    try {
      parsed = parseAllDocuments(content, { prettyErrors: true, uniqueKeys: false }) as Document.Parsed[] | { readonly empty: true };
    } catch (error) {
      if (error instanceof RangeError) throw tooComplex('the nesting of YAML collections', limits.maxNestingDepth);
      throw error;
    }
    // (An empty stream is an empty list in a wrapper, not an array.)
    const documents: readonly Document.Parsed[] = Array.isArray(parsed) ? parsed : [];
    for (const document of documents) {
      const error = document.errors[0];
      if (error && /call stack/i.test(error.message)) throw tooComplex('the nesting of YAML collections', limits.maxNestingDepth);
      if (error) {
        const line = error.linePos?.[0].line;
        throw new ServiceError('invalid_request', `The content is not valid YAML${line ? `: line ${line}` : ''}: ${error.message.split('\n')[0]}`);
      }
      reader.root(document.contents);
    }
    return out.document();
  },
};

type Range = readonly [number, number, number];

/**
 * Refuses nesting past the limit before the parser sees it: the `yaml` parser recurses
 * per level, and 10⁵ open brackets took it 20 seconds to overflow its stack. One linear
 * pass: flow brackets outside quotes and comments, and block indentation levels (a
 * stack of the indentations of lines that open deeper ones).
 */
function checkNesting(content: string, limit: number): void {
  let flow = 0;
  const indents: number[] = [];
  let lineStart = true;
  let indent = 0;
  let quote = '';
  for (let i = 0; i < content.length; i++) {
    const c = content[i]!;
    if (c === '\n') {
      lineStart = true;
      indent = 0;
      continue; // (a quoted scalar may span lines: its quote stays open)
    }
    if (lineStart) {
      if (c === ' ') {
        indent++;
        continue;
      }
      lineStart = false;
      if (c !== '#' && c !== '\r' && flow === 0 && quote === '') {
        while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
        indents.push(indent);
        if (indents.length > limit) throw tooComplex('the nesting of YAML collections', limit);
      }
    }
    if (quote !== '') {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || (c === "'" && /[\s[{,:]/.test(content[i - 1] ?? ' '))) quote = c;
    else if (c === '#' && /\s/.test(content[i - 1] ?? ' ')) {
      const end = content.indexOf('\n', i);
      i = end === -1 ? content.length : end - 1;
    } else if (c === '[' || c === '{') {
      if (++flow > limit) throw tooComplex('the nesting of YAML collections', limit);
    } else if ((c === ']' || c === '}') && flow > 0) flow--;
  }
}

const RUBY_SYMBOL = /^:[A-Za-z_]\w*[?!]?$/;

class YamlReader {
  readonly #eol: string;

  constructor(
    private readonly out: EntriesDocumentBuilder,
    private readonly source: string,
    private readonly limits: DocumentLimits,
  ) {
    this.#eol = /\r\n/.test(source.slice(0, source.indexOf('\n') + 1)) ? '\r\n' : '\n';
  }

  root(node: unknown): void {
    if (isMap(node) && node.items.length === 1) {
      const key = node.items[0]!.key;
      // The file's locale (Rails loads a file's strings under its root key): the target's
      // code in the answer, also for a language the API does not list (decision 0102).
      if (isScalar(key) && key.type === 'PLAIN' && typeof key.value === 'string' && isLanguageCode(key.value) && key.range) {
        const [start, end] = key.range;
        this.out.sourceLanguage ??= key.value;
        this.out.edit({ start, end, render: (target) => target.code });
        this.walk(node.items[0]!.value, [], 1);
        return;
      }
    }
    this.walk(node, [], 0);
  }

  /**
   * `keyStart`: where the key of the pair holding `node` starts, when that pair is a block
   * mapping's and nothing above it is a sequence or a flow collection, so its lines can be
   * the entry's block for `sync` (`place`). `inSequence`: below a sequence's item.
   */
  walk(node: unknown, path: string[], depth: number, note?: string, inFlow = false, keyStart?: number, inSequence = false): void {
    if (depth > this.limits.maxNestingDepth) throw tooComplex('the nesting of YAML collections', this.limits.maxNestingDepth);
    if (isMap(node)) {
      if (this.pluralHash(node, path, keyStart)) return;
      const flow = inFlow || Boolean(node.flow);
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : '?';
        const comment = isScalar(pair.key) ? pair.key.commentBefore ?? undefined : undefined;
        const start = !flow && !inSequence && isScalar(pair.key) && pair.key.range ? pair.key.range[0] : undefined;
        this.walk(pair.value, [...path, key], depth + 1, comment?.trim(), flow, start, inSequence);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => this.walk(item, [...path, String(index)], depth + 1, undefined, inFlow || Boolean(node.flow), undefined, true));
    } else if (isScalar(node) && !isAlias(node) && typeof node.value === 'string' && node.range) {
      this.scalar(node as Scalar<string>, path, note, inFlow, keyStart);
    }
  }

  /**
   * Where `sync` finds an entry (entries/entry.ts): its region (the value's bytes) and its
   * block (the key's line to the value's last line, with the comment lines right above).
   * None for a value in a sequence or a flow collection, or one sharing its lines with
   * another pair: cut out of a request, its neighbours would change meaning.
   */
  place(keyStart: number | undefined, regionStart: number, regionEnd: number): Pick<LocaleEntry, 'region' | 'block'> {
    if (keyStart === undefined) return {};
    const source = this.source;
    let blockStart = source.lastIndexOf('\n', keyStart - 1) + 1;
    if (!/^[ ]*$/.test(source.slice(blockStart, keyStart))) return {};
    while (blockStart > 0) {
      const previous = source.lastIndexOf('\n', blockStart - 2) + 1;
      if (!/^[ \t]*#/.test(source.slice(previous, blockStart - 1))) break;
      blockStart = previous;
    }
    const newline = source.indexOf('\n', regionEnd);
    const lineEnd = newline === -1 ? source.length : newline;
    if (!/^[ \t]*(?:#.*)?\r?$/.test(source.slice(regionEnd, lineEnd))) return {};
    return { region: [regionStart, regionEnd], block: [blockStart, newline === -1 ? source.length : newline + 1] };
  }

  scalar(node: Scalar<string>, path: string[], note: string | undefined, inFlow: boolean, keyStart?: number): void {
    // Not prose (URLs, identifiers, Ruby symbols such as `:year`, numbers in strings): kept, as in JSON.
    if (!isProse(node.value) || RUBY_SYMBOL.test(node.value)) return;
    const out = this.out;
    const [start, valueEnd] = node.range as Range;
    const notes = note ? [note] : [];
    const key = path.join('.');
    if (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED') {
      const block = this.block(start, valueEnd);
      if (!block) return;
      const value = out.value(block.text, [], entryNote(key, notes, node.value));
      out.entry({ key, value: node.value, notes, ...this.place(keyStart, start, block.end) });
      out.valueEdit(block.start, block.end, value, (translation) => writeBlockLines(translation, block.indent, this.#eol));
      return;
    }
    const style = (node.type ?? 'PLAIN') as ScalarStyle;
    const folded = this.foldedForm(node);
    if (folded) {
      // Over several lines: its lines are translated as they stand, each line break a mark
      // that goes back as it was (folded-lines.ts).
      const quote = style === 'PLAIN' ? 0 : 1;
      const value = out.value(folded.text, folded.spans, entryNote(key, notes, node.value));
      out.entry({ key, value: node.value, notes, ...this.place(keyStart, start, valueEnd) });
      out.valueEdit(start + quote, valueEnd - quote, value, (translation) => folded.write(translation, inFlow));
      return;
    }
    const value = out.value(node.value, [], entryNote(key, notes, node.value));
    out.entry({ key, value: node.value, notes, ...this.place(keyStart, start, valueEnd) });
    // Unchanged, its source bytes; a value the builder keeps as it is (one holding a NUL) is unchanged too.
    out.valueEdit(start, valueEnd, value, (translation) => writeFlowScalar(translation, style, inFlow));
  }

  /** A block scalar's content: from its first line to the end of its last non-blank line, unindented. */
  block(start: number, end: number): { start: number; end: number; text: string; indent: string } | undefined {
    const source = this.source;
    const header = source.indexOf('\n', start);
    if (header === -1 || header >= end) return undefined;
    const contentStart = header + 1;
    const lines = source.slice(contentStart, end).split('\n');
    while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
    if (lines.length === 0) return undefined;
    const indent = /^[ ]*/.exec(lines.find((line) => line.trim() !== '')!)![0];
    const text: string[] = [];
    for (const rawLine of lines) {
      const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
      if (line.trim() === '') text.push('');
      else if (!line.startsWith(indent)) return undefined;
      else text.push(line.slice(indent.length));
    }
    // A blank line with spaces would not come back as it was: such a block is left as it is.
    if (lines.some((line) => line !== '' && line !== '\r' && line.trim() === '')) return undefined;
    const contentEnd = contentStart + lines.join('\n').length - (lines[lines.length - 1]!.endsWith('\r') ? 1 : 0);
    return { start: contentStart, end: contentEnd, text: text.join('\n'), indent };
  }

  /**
   * A block mapping whose keys are plural categories, each `key: value` pair on lines of
   * its own with a string flow value: each target gets its own categories. Its forms are
   * one plural value (entries/document.ts), worded per category by the model; a form
   * folded over several lines keeps its line breaks as marks (folded-lines.ts). A kept
   * category keeps its lines, a missing one is inserted before `other` with its own text
   * (the `other` text when a render has none for it) on one line (decision 0112), an
   * extra one is removed with its lines.
   */
  pluralHash(node: YAMLMap, path: string[], keyStart?: number): boolean {
    if (node.flow) return false;
    const keys = node.items.map((pair) => (isScalar(pair.key) && typeof pair.key.value === 'string' ? pair.key.value : ''));
    // A category written twice (a slip in a real file): Ruby reads the last one, so the
    // earlier one is dead text; it is left out of every target (decision 0113).
    const shadowed = keys.map((key, i) => keys.lastIndexOf(key) !== i);
    const live = keys.map((_key, i) => i).filter((i) => !shadowed[i]);
    if (!isPluralHash(live.map((i) => keys[i]!))) return false;
    const lines = node.items.map((pair) => this.pairLine(pair));
    if (lines.some((line) => line === undefined)) return false;
    const out = this.out;
    const forms: Record<string, string> = {};
    for (const i of live) forms[keys[i]!] = (node.items[i]!.value as Scalar<string>).value;
    const folds = node.items.map((pair) => this.foldedForm(pair.value as Scalar<string>));
    const value = out.pluralValue(
      live.map((i) => {
        const category = keys[i]!;
        const folded = folds[i];
        return folded ? { category, text: folded.text, protectedSpans: folded.spans } : { category, text: forms[category]! };
      }),
      entryNote(path.join('.'), [], forms.other!),
    );
    // Its region: the category lines, which a target has for its own categories.
    const regionEnd = lines[lines.length - 1]!.end - (/\r?\n$/.exec(this.source.slice(lines[lines.length - 1]!.start, lines[lines.length - 1]!.end))?.[0].length ?? 0);
    out.entry({ key: path.join('.'), value: forms.other!, notes: [], forms, ...this.place(keyStart, lines[0]!.start, regionEnd) });
    const hasZero = keys.includes('zero');
    const wanted = (code: string): readonly string[] => targetCategories(code, hasZero);
    // A text written on one line: its marks (a text worded from a folded `other`) folded as `other`'s breaks fold.
    const otherFold = folds[keys.lastIndexOf('other')];
    const unfold = (text: string): string => (otherFold ? otherFold.unfold(text) : text.replaceAll(LINE_BREAK_MARK, ' '));
    const otherOf = (texts: ReadonlyMap<string, string>): string => texts.get('other') ?? otherFold?.text ?? forms.other!;
    node.items.forEach((pair, i) => {
      const line = lines[i]!;
      const category = keys[i]!;
      if (shadowed[i]) {
        out.edit({ start: line.start, end: line.end, render: () => '' });
        return;
      }
      const scalar = pair.value as Scalar<string>;
      const folded = folds[i];
      const [valueStart, valueEnd] = scalar.range as Range;
      const style = (scalar.type ?? 'PLAIN') as ScalarStyle;
      const before = this.source.slice(line.start, valueStart);
      const after = this.source.slice(valueEnd, line.end);
      const sourceValue = this.source.slice(valueStart, valueEnd);
      const quote = style === 'PLAIN' ? '' : sourceValue[0]!;
      const write = (text: string): string => {
        if (folded) return `${quote}${folded.write(text, false)}${quote}`;
        const oneLine = unfold(text);
        return oneLine === scalar.value ? sourceValue : writeFlowScalar(oneLine, style, false);
      };
      out.pluralFormEdit(line.start, line.end, value, {
        category,
        categories: keys,
        wanted,
        own: (texts) => `${before}${write(texts.get(category) ?? otherOf(texts))}${after}`,
        added: (c, texts) => `${line.indent}${c}: ${writeFlowScalar(unfold(texts.get(c) ?? otherOf(texts)), style, false)}${this.#eol}`,
      });
    });
    return true;
  }

  /**
   * A flow scalar (a plural hash's form too) folded over several lines, when its line
   * breaks can be marks (plain, single quoted, double quoted without escapes); a one-line
   * scalar, or a double-quoted one with escapes, is translated as the value YAML reads and
   * written on one line.
   */
  foldedForm(scalar: Scalar<string>): FoldedLines | undefined {
    const [start, end] = scalar.range as Range;
    const raw = this.source.slice(start, end);
    const style = (scalar.type ?? 'PLAIN') as ScalarStyle;
    if (!raw.includes('\n') || raw.includes(LINE_BREAK_MARK) || (style === 'QUOTE_DOUBLE' && raw.includes('\\'))) return undefined;
    const quote = style === 'PLAIN' ? 0 : 1;
    return foldedLines(raw.slice(quote, raw.length - quote), style);
  }

  /**
   * The lines of a `key: value` pair (from its key's line start to its value's line end),
   * when the pair has them to itself and its value is a string flow scalar.
   */
  pairLine(pair: Pair): { start: number; end: number; indent: string } | undefined {
    const key = pair.key as Node | null;
    const value = pair.value as Node | null;
    if (!isScalar(key) || !isScalar(value) || typeof value.value !== 'string' || !key.range || !value.range) return undefined;
    if (value.type !== 'PLAIN' && value.type !== 'QUOTE_DOUBLE' && value.type !== 'QUOTE_SINGLE') return undefined;
    const source = this.source;
    const start = source.lastIndexOf('\n', key.range[0] - 1) + 1;
    const indent = source.slice(start, key.range[0]);
    if (!/^[ ]*$/.test(indent)) return undefined;
    const newline = source.indexOf('\n', value.range[1]);
    const end = newline === -1 ? source.length : newline + 1;
    if (!/^[ \t]*(?:#[^\n]*)?\r?\n?$/.test(source.slice(value.range[1], end))) return undefined;
    return { start, end, indent };
  }
}
