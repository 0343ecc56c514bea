/**
 * Xcode String Catalogs (docs/formats.md "xcstrings"): each entry's source-language
 * string, or its plural/device variations and substitutions, is translated into
 * `localizations.<target>` with `"state" : "translated"`; the target's localization is
 * added (in Xcode's key order) or replaced, written as Xcode writes it
 * (xcode-json.ts). Every other byte of the catalog stays: the source language's
 * entries, `comment`s (which reach the model as notes), `extractionState`, other
 * languages, and entries with `"shouldTranslate" : false`, which get no localization.
 * Plural variations get the target's full CLDR categories (a source `zero` is kept),
 * each worded for its numbers (decision 0098).
 */
import { parseTree, printParseErrorCode } from 'jsonc-parser';
import type { Node, ParseError } from 'jsonc-parser';
import { appleLanguageCode } from '../../languages.js';
import type { FormatAdapter } from '../format.js';
import { DEFAULT_DOCUMENT_LIMITS } from '../core/limits.js';
import { EntriesDocumentBuilder, targetCategories } from '../entries/document.js';
import type { EntryTarget } from '../entries/entry.js';
import { entryNote } from '../entries/note.js';
import { checkJsonNesting } from '../core/limits.js';
import type { DocumentLimits } from '../core/limits.js';
import { appleDirectiveSpans } from '../strings/directives.js';
import { decodePluralForms, isFormText } from '../core/plural-forms-text.js';
import { isPluralCategory } from '../../plurals/index.js';
import { compareXcodeKeys, writeXcodeJson } from './xcode-json.js';
import type { XcodeValue } from './xcode-json.js';
import { invalidContent } from '../core/invalid.js';

type Json = { readonly [key: string]: XcodeValue };

function invalid(content: string, at: number, what: string): never {
  return invalidContent('a valid String Catalog', content, at, what);
}

function property(object: Node, name: string): Node | undefined {
  return object.children?.find((p) => p.children?.[0]?.value === name)?.children?.[1];
}

/** The column of a node's first character: the indentation its siblings are written at. */
function columnOf(content: string, at: number): number {
  return at - (content.lastIndexOf('\n', at - 1) + 1);
}

function readCatalog(content: string, limits: DocumentLimits): { root: Node; sourceLanguage: string; strings: Node } {
  checkJsonNesting(content, limits.maxNestingDepth);
  const errors: ParseError[] = [];
  const root = parseTree(content, errors, { allowTrailingComma: false, disallowComments: true });
  if (errors.length > 0) invalid(content, errors[0]!.offset, `${printParseErrorCode(errors[0]!.error)} (a catalog is JSON)`);
  if (!root || root.type !== 'object') invalid(content, 0, 'expected a JSON object');
  const sourceLanguage = property(root, 'sourceLanguage');
  const strings = property(root, 'strings');
  if (sourceLanguage?.type !== 'string') invalid(content, root.offset, 'expected "sourceLanguage" : "<code>"');
  if (strings?.type !== 'object') invalid(content, root.offset, 'expected "strings" : { … }');
  return { root, sourceLanguage: sourceLanguage.value as string, strings };
}

class CatalogReader {
  constructor(
    private readonly out: EntriesDocumentBuilder,
    private readonly key: string,
    private readonly comment: string[],
  ) {}

  /** Registers every string unit of a localization (or a variation case) as a value; answers how to write it for a target. */
  template(source: Json, context: readonly string[]): (target: EntryTarget, translated: readonly string[]) => XcodeValue {
    const parts: [string, (target: EntryTarget, translated: readonly string[]) => XcodeValue][] = [];
    for (const [name, value] of Object.entries(source)) {
      if (name === 'stringUnit' && value && typeof value === 'object' && typeof (value as Json).value === 'string') {
        const text = (value as Json).value as string;
        // A catalog's key is often the source text itself: then it says nothing more.
        const index = this.out.value(text, appleDirectiveSpans(text), entryNote(this.key === text ? undefined : this.key, [...this.comment, ...context], text));
        const unit = value as Json;
        parts.push([name, (_t, translated) => Object.assign({}, unit, { state: 'translated', value: translated[index]! })]);
      } else if (name === 'variations' && value && typeof value === 'object' && !Array.isArray(value)) {
        parts.push([name, this.variations(value as Json, context)]);
      } else if (name === 'substitutions' && value && typeof value === 'object' && !Array.isArray(value)) {
        const subs = Object.entries(value as Json).map(([sub, body]) => [sub, body && typeof body === 'object' && !Array.isArray(body) ? this.template(body as Json, [...context, `substitution: ${sub}`]) : () => body] as const);
        parts.push([name, (t, tr) => Object.fromEntries(subs.map(([sub, write]) => [sub, write(t, tr)]))]);
      } else {
        parts.push([name, () => value]);
      }
    }
    return (target, translated) => Object.fromEntries(parts.map(([name, write]) => [name, write(target, translated)]));
  }

  /** `plural` variations take the target's categories; `device` and others keep their cases. */
  variations(source: Json, context: readonly string[]): (target: EntryTarget, translated: readonly string[]) => XcodeValue {
    const kinds = Object.entries(source).map(([kind, cases]) => {
      if (!cases || typeof cases !== 'object' || Array.isArray(cases)) return [kind, () => cases] as const;
      const plural = kind === 'plural' ? this.pluralForms(cases as Json, context) : undefined;
      if (plural !== undefined) return [kind, plural] as const;
      const writers = new Map(
        Object.entries(cases as Json).map(([name, body]) => [
          name,
          body && typeof body === 'object' && !Array.isArray(body) ? this.template(body as Json, [...context, kind === 'plural' ? `plural form: ${name}` : `${kind}: ${name}`]) : () => body,
        ]),
      );
      if (kind !== 'plural' || !writers.has('other')) {
        return [kind, (t: EntryTarget, tr: readonly string[]) => Object.fromEntries([...writers].map(([name, write]) => [name, write(t, tr)]))] as const;
      }
      const hasZero = writers.has('zero');
      return [
        kind,
        (t: EntryTarget, tr: readonly string[]) => Object.fromEntries(targetCategories(t.code, hasZero).map((category) => [category, (writers.get(category) ?? writers.get('other')!)(t, tr)])),
      ] as const;
    });
    return (target, translated) => Object.fromEntries(kinds.map(([kind, write]) => [kind, write(target, translated)]));
  }

  /**
   * Plural cases that are each one string unit, with `other`: one plural value
   * (entries/document.ts) the model words per category (decision 0098), written as the
   * target's categories (a source `zero` kept), in Xcode's key order. Undefined for any
   * other shape (nested substitutions or variations), whose cases are translated one by one.
   */
  pluralForms(cases: Json, context: readonly string[]): ((target: EntryTarget, translated: readonly string[]) => XcodeValue) | undefined {
    const units = Object.entries(cases).map(([category, body]) => [category, unitOf(body)] as const);
    if (!units.some(([category]) => category === 'other') || !units.every(([category, unit]) => isPluralCategory(category) && unit !== undefined && isFormText(unit.value as string))) return undefined;
    const forms = new Map(units.map(([category, unit]) => [category, unit!.value as string]));
    const other = forms.get('other')!;
    const index = this.out.pluralValue(
      [...forms].map(([category, text]) => ({ category, text, protectedSpans: appleDirectiveSpans(text) })),
      entryNote(this.key === other ? undefined : this.key, [...this.comment, ...context], other),
    );
    const sourceText = this.out.valueText(index);
    const hasZero = forms.has('zero');
    return (target, translated) => {
      const rendered = translated[index] === sourceText ? forms : decodePluralForms(translated[index]!);
      return Object.fromEntries(
        targetCategories(target.code, hasZero).map((category) => {
          const unit = units.find(([name]) => name === category)?.[1] ?? units.find(([name]) => name === 'other')![1]!;
          const value = rendered.get(category) ?? rendered.get('other') ?? other;
          return [category, { stringUnit: Object.assign({}, unit, { state: 'translated', value }) }];
        }),
      );
    };
  }
}

/** A case that is one string unit and nothing else: `{ "stringUnit" : { "state" : …, "value" : … } }`. */
function unitOf(body: XcodeValue | undefined): Json | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const keys = Object.keys(body);
  const unit = (body as Json).stringUnit;
  if (keys.length !== 1 || !unit || typeof unit !== 'object' || Array.isArray(unit) || typeof (unit as Json).value !== 'string') return undefined;
  return unit as Json;
}

export const xcstringsAdapter: FormatAdapter = {
  format: 'xcstrings',
  extract(content, given) {
    const limits = given ?? DEFAULT_DOCUMENT_LIMITS;
    const out = new EntriesDocumentBuilder('xcstrings', content, limits);
    const { sourceLanguage, strings } = readCatalog(content, limits);
    out.sourceLanguage = sourceLanguage;
    for (const pair of strings.children ?? []) {
      const key = pair.children![0]!.value as string;
      const entry = pair.children![1]!;
      if (entry.type !== 'object') invalid(content, entry.offset, `the entry ${JSON.stringify(key.slice(0, 60))} is not an object`);
      if (property(entry, 'shouldTranslate')?.value === false) continue;
      const comment = property(entry, 'comment');
      const notes = comment?.type === 'string' && (comment.value as string).trim() ? [comment.value as string] : [];
      const localizations = property(entry, 'localizations');
      if (localizations && localizations.type !== 'object') invalid(content, localizations.offset, `"localizations" of ${JSON.stringify(key.slice(0, 60))} is not an object`);
      const sourceNode = localizations && property(localizations, sourceLanguage);
      const source: Json = sourceNode?.type === 'object' ? (getValue(sourceNode) as Json) : { stringUnit: { state: 'translated', value: key } };
      const reader = new CatalogReader(out, key, notes);
      const write = reader.template(source, []);
      const sourceText = typeof (source.stringUnit as Json | undefined)?.value === 'string' ? ((source.stringUnit as Json).value as string) : key;
      out.entry({ key, value: sourceText, notes });
      placeLocalization(out, content, entry, localizations, sourceLanguage, write);
    }
    return out.document();
  },
};

function getValue(node: Node): XcodeValue {
  switch (node.type) {
    case 'object':
      return Object.fromEntries((node.children ?? []).map((p) => [p.children![0]!.value as string, getValue(p.children![1]!)]));
    case 'array':
      return (node.children ?? []).map(getValue);
    default:
      return node.value as XcodeValue;
  }
}

/**
 * The edit that writes the target's localization: replacing it, inserting it among its
 * siblings, or giving the entry its `localizations`. One edit over the whole object (the
 * entry's `localizations`, or the entry when it has none): where the target goes depends
 * on its code.
 */
function placeLocalization(
  out: EntriesDocumentBuilder,
  content: string,
  entry: Node,
  localizations: Node | undefined,
  sourceLanguage: string,
  write: (target: EntryTarget, translated: readonly string[]) => XcodeValue,
): void {
  const object = localizations ?? entry;
  const start = object.offset;
  const end = object.offset + object.length;
  const sourceBytes = content.slice(start, end);
  const pairs = (object.children ?? []).map((p) => ({ name: p.children![0]!.value as string, start: p.offset, end: p.offset + p.length }));
  /** The column of the object's members. */
  const column = localizations?.children?.length ? columnOf(content, localizations.children[0]!.offset) : columnOf(content, object.parent!.offset) + 2;
  out.edit({
    start,
    end,
    render(target, translated) {
      const code = appleLanguageCode(target.code);
      if (code === sourceLanguage) return sourceBytes;
      if (!localizations) return withMember(sourceBytes, start, pairs, 'localizations', `"localizations" : ${writeXcodeJson({ [code]: write(target, translated) }, column)}`, column);
      const written = `${JSON.stringify(code)} : ${writeXcodeJson(write(target, translated), column)}`;
      const existing = pairs.find((p) => p.name === code);
      if (existing) return sourceBytes.slice(0, existing.start - start) + written + sourceBytes.slice(existing.end - start);
      return withMember(sourceBytes, start, pairs, code, written, column);
    },
  });
}

/**
 * An object's bytes (`objectBytes`, from `start`) with the member `name` (`written`) added
 * in Xcode's key order: before the first pair named after it, else after the last pair,
 * else as the object's only member, on a line of its own at `column`.
 */
function withMember(objectBytes: string, start: number, pairs: readonly { name: string; start: number; end: number }[], name: string, written: string, column: number): string {
  const after = pairs.find((p) => compareXcodeKeys(p.name, name) > 0);
  if (after) return `${objectBytes.slice(0, after.start - start)}${written},\n${' '.repeat(column)}${objectBytes.slice(after.start - start)}`;
  const last = pairs[pairs.length - 1];
  if (last) return `${objectBytes.slice(0, last.end - start)},\n${' '.repeat(column)}${written}${objectBytes.slice(last.end - start)}`;
  return `{\n${' '.repeat(column)}${written}\n${' '.repeat(column - 2)}}`;
}
