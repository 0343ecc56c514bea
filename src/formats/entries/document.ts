/**
 * An extracted locale file: its values become segments the way plain text does
 * (paragraphs; a line break inside one is a mark), their placeholders and markup masked
 * as in JSON string values; a render replaces only the edits' byte ranges of the source,
 * each edit written by its format from the translated values. The values are laid one
 * after another, NUL between them, in a text of their own whose ranges the segments
 * cover: one TemplateDocument renders them all, and the NULs give each value back.
 */
import type { ExtractedDocument, Format, RenderTarget, Translations } from '../format.js';
import type { Segment } from '../../segments/segment.js';
import { CLOSE, DocumentBuilder, newPairId, OPEN } from '../core/document.js';
import type { TemplateDocument } from '../core/document.js';
import { decodePluralForms, encodePluralForms, FORM_END, FORM_START, isFormText } from '../core/plural-forms-text.js';
import type { PluralBranch } from '../../segments/segment.js';
import { plainEscape } from '../core/escape.js';
import { DEFAULT_DOCUMENT_LIMITS, tooComplex } from '../core/limits.js';
import type { DocumentLimits } from '../core/limits.js';
import { PlaceholderScanner } from '../core/placeholders.js';
import type { MaskSink, TextRun } from '../core/placeholders.js';
import { ATOM } from '../core/document.js';
import { plainSegments } from '../plain.js';
import type { Masker } from '../plain.js';
import type { EntryEdit, LocaleEntry } from './entry.js';
import { pluralCategories } from '../../plurals/index.js';

const SEPARATOR = '\u0000';
/** A model's answer never carries the separator into a value. */
const SEPARATORS = /[\u0000\u0001\u0002]/g;
const withoutSeparator = (run: string): string =>
  run.includes(SEPARATOR) || run.includes(FORM_START) || run.includes(FORM_END) ? run.replace(SEPARATORS, '') : run;

/** One form of a plural value: its CLDR category, its text, and spans of the text kept as marks. */
export interface PluralFormValue {
  readonly category: string;
  readonly text: string;
  readonly protectedSpans?: readonly (readonly [number, number])[];
}

/**
 * The categories a target writes: CLDR's cardinal ones, with a source `zero` kept (Ruby
 * I18n and Apple use it for a count of 0 in every language).
 */
export function targetCategories(code: string, sourceHasZero: boolean): readonly string[] {
  const categories = pluralCategories(code, 'cardinal');
  return sourceHasZero && !categories.includes('zero') ? ['zero', ...categories] : categories;
}

/** One form's place in a plural value (pluralFormEdit): its category, the source's, the target's, and how to write a form. */
export interface PluralFormEdit {
  readonly category: string;
  readonly categories: readonly string[];
  wanted(code: string): readonly string[];
  /** The forms' texts while the translation is the source text (else they are decoded from it). */
  readonly sourceForms?: ReadonlyMap<string, string>;
  own(texts: ReadonlyMap<string, string>): string;
  added(category: string, texts: ReadonlyMap<string, string>): string;
}

export class EntriesDocumentBuilder {
  readonly #values: string[] = [];
  /** The text of each value kept as it is (one holding a NUL, value()), by value index: what its translation is. */
  readonly #keptAs = new Map<number, string>();
  /** Each value's note for the model (entry.ts, note.ts), by value index. */
  readonly #notes: (string | undefined)[] = [];
  /** The forms of each plural value (pluralValue), by value index. */
  readonly #plurals = new Map<number, readonly PluralFormValue[]>();
  /** Spans of the values' text (offsets in the joined values) that are kept as marks, sorted. */
  readonly #protected: number[] = [];
  #length = 0;
  readonly #edits: EntryEdit[] = [];
  readonly entries: LocaleEntry[] = [];
  /** The language the file names for its source text (ExtractedDocument.sourceLanguage). */
  sourceLanguage: string | undefined;
  /**
   * Where an entry the file does not have yet goes when no entry of it is left to put it
   * next to: the end of its root's content (before `</resources>`), for sync's merge.
   */
  entriesEnd: number | undefined;

  constructor(
    readonly format: Format,
    readonly source: string,
    private readonly limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS,
  ) {}

  /**
   * A text to translate; answers its index, which an edit's `render` reads. A NUL in a
   * value (a properties `\u0000`, a YAML `"\0"`) would split it: such a value is not
   * sent, and its translation is its text.
   */
  value(text: string, protectedSpans: readonly (readonly [number, number])[] = [], note?: string): number {
    this.#notes.push(note);
    if (this.#values.length >= this.limits.maxSegments) throw tooComplex('the number of entries', this.limits.maxSegments);
    const kept = text.includes(SEPARATOR) ? '' : text;
    if (kept !== text) this.#keptAs.set(this.#values.length, text);
    if (kept) for (const [start, end] of protectedSpans) this.#protected.push(this.#length + start, this.#length + end);
    this.#length += kept.length + 1;
    return this.#values.push(kept) - 1;
  }

  /**
   * A counted message's forms as one value (core/plural-forms-text.ts): one segment with a
   * branch per form, which translation/ shapes into each target's categories. Its
   * rendered text is read with `decodePluralForms`. A form holding a separator makes
   * the value one that is kept as it is.
   */
  pluralValue(forms: readonly PluralFormValue[], note?: string): number {
    if (!forms.every((form) => isFormText(form.text) && !form.text.includes(SEPARATOR))) return this.value(SEPARATOR, [], note);
    const index = this.#values.length;
    let offset = 0;
    const spans: [number, number][] = [];
    for (const form of forms) {
      const textStart = offset + form.category.length + 1;
      for (const [start, end] of form.protectedSpans ?? []) spans.push([textStart + start, textStart + end]);
      offset = textStart + form.text.length + 1;
    }
    this.value(encodePluralForms(forms.map((form) => [form.category, form.text])), spans, note);
    this.#plurals.set(index, forms);
    return index;
  }

  /** The source text of a value, as given. */
  valueText(index: number): string {
    return this.#keptAs.get(index) ?? this.#values[index]!;
  }

  edit(edit: EntryEdit): void {
    this.#edits.push(edit);
  }

  /** The edit of a value's place: its source bytes while its translation is its source text, else the translation as `write` puts it. */
  valueEdit(start: number, end: number, index: number, write: (translation: string) => string): void {
    const sourceBytes = this.source.slice(start, end);
    this.edit({ start, end, render: (_target, translated) => (translated[index] === this.valueText(index) ? sourceBytes : write(translated[index]!)) });
  }

  /**
   * The edit of one form's place in plural value `index` when a target has its own
   * categories: a form it lacks is removed, and `other`'s edit writes each it adds first.
   */
  pluralFormEdit(start: number, end: number, index: number, form: PluralFormEdit): void {
    this.edit({
      start,
      end,
      render: (target, translated) => {
        const wanted = form.wanted(target.code);
        const texts = form.sourceForms !== undefined && translated[index] === this.valueText(index) ? form.sourceForms : decodePluralForms(translated[index]!);
        let added = '';
        if (form.category === 'other') for (const category of wanted) if (!form.categories.includes(category)) added += form.added(category, texts);
        return wanted.includes(form.category) ? added + form.own(texts) : added;
      },
    });
  }

  entry(entry: LocaleEntry): void {
    this.entries.push(entry);
  }

  document(): EntriesDocument {
    const text = this.#values.join(SEPARATOR);
    const values = new DocumentBuilder(this.format, text);
    const scanner = new PlaceholderScanner({ markup: true, blobs: true, limits: this.limits });
    const placeholders = this.#protected.length === 0 ? scanner : new ProtectingMasker(scanner, this.#protected);
    let at = 0;
    // Which value each segment comes from, to give it the value's note.
    const notes: (string | undefined)[] = [];
    let built = 0;
    this.#values.forEach((value, index) => {
      const forms = this.#plurals.get(index);
      if (forms === undefined) plainSegments(values, at, at + value.length, this.limits, placeholders);
      else pluralSegment(values, at, forms, placeholders);
      at += value.length + 1;
      const template = values.segmentCount;
      for (; built < template; built++) notes.push(this.#notes[index]);
    });
    const edits = [...this.#edits].sort((a, b) => a.start - b.start || a.end - b.end);
    for (let i = 1; i < edits.length; i++) {
      if (edits[i]!.start < edits[i - 1]!.end) throw new Error(`${this.format}: overlapping edits at ${edits[i]!.start}`);
    }
    return new EntriesDocument(this.format, this.source, values.document(), this.#values.length, edits, this.entries, notes, this.#keptAs, this.sourceLanguage?.trim() || undefined, this.entriesEnd);
  }
}

export class EntriesDocument implements ExtractedDocument {
  readonly segments: readonly Segment[];

  constructor(
    readonly format: Format,
    private readonly source: string,
    private readonly values: TemplateDocument,
    private readonly valueCount: number,
    private readonly edits: readonly EntryEdit[],
    readonly entries: readonly LocaleEntry[],
    notes: readonly (string | undefined)[],
    private readonly keptAs: ReadonlyMap<number, string>,
    readonly sourceLanguage?: string,
    /** See EntriesDocumentBuilder.entriesEnd. */
    readonly entriesEnd?: number,
  ) {
    this.segments = notes.some((note) => note !== undefined)
      ? values.segments.map((segment, i) => (notes[i] === undefined ? segment : Object.assign({}, segment, { note: notes[i] })))
      : values.segments;
  }

  render(translations: Translations, target: RenderTarget): string {
    const translated = this.values.render(cleaned(translations), target).split(SEPARATOR);
    if (translated.length !== this.valueCount && this.valueCount > 0) throw new Error(`${this.format}: values lost in rendering`);
    for (const [index, text] of this.keptAs) translated[index] = text;
    const out: string[] = [];
    let cursor = 0;
    for (const edit of this.edits) {
      out.push(this.source.slice(cursor, edit.start), edit.render(target, translated));
      cursor = edit.end;
    }
    out.push(this.source.slice(cursor));
    return out.join('');
  }
}

/**
 * The segment of a plural value at `at`: each form a branch pair (opened by its category
 * name and FORM_START, closed by FORM_END) around its text, whose line breaks are atoms
 * as in plain text.
 */
function pluralSegment(values: DocumentBuilder, at: number, forms: readonly PluralFormValue[], masker: Masker): void {
  const joined = values.source;
  values.begin(at, at, 'block', plainEscape);
  const branches: PluralBranch[] = [];
  let offset = at;
  for (const form of forms) {
    const pair = newPairId();
    branches.push({ selector: form.category, pair: values.pairCount + 1 });
    const textStart = offset + form.category.length + 1;
    const textEnd = textStart + form.text.length;
    values.mark(OPEN, offset, textStart, pair);
    let runStart = textStart;
    for (let newline = joined.indexOf('\n', textStart); newline !== -1 && newline < textEnd; newline = joined.indexOf('\n', newline + 1)) {
      if (newline > runStart) masker.mask(values, joined, runStart, newline);
      values.mark(ATOM, newline, newline + 1, 0);
      runStart = newline + 1;
    }
    if (textEnd > runStart) masker.mask(values, joined, runStart, textEnd);
    values.mark(CLOSE, textEnd, textEnd + 1, pair);
    offset = textEnd + 1;
  }
  values.plurals([{ type: 'cardinal', style: 'entries', branches }]);
  values.commit(offset);
}

function cleaned(translations: Translations): Translations {
  if (Array.isArray(translations)) return (translations as readonly (string | undefined)[]).map((t) => (t === undefined ? t : withoutSeparator(t)));
  const map = new Map<string, string>();
  for (const [id, text] of translations as ReadonlyMap<string, string>) map.set(id, withoutSeparator(text));
  return map;
}

/** Masks the protected spans (format directives) as atoms, and the text between them with the scanner. */
class ProtectingMasker implements Masker {
  #next = 0;

  constructor(
    private readonly scanner: PlaceholderScanner,
    /** Sorted, disjoint `start, end` pairs. */
    private readonly spans: readonly number[],
  ) {}

  mask(sink: MaskSink, text: string, from: number, to: number, run?: TextRun, raw?: string): void {
    const spans = this.spans;
    // Runs arrive in order; a span before this run can be skipped for good.
    while (this.#next < spans.length && spans[this.#next + 1]! <= from) this.#next += 2;
    let at = from;
    for (let i = this.#next; i < spans.length && spans[i]! < to; i += 2) {
      const start = Math.max(spans[i]!, from);
      const end = Math.min(spans[i + 1]!, to);
      if (start > at) this.scanner.mask(sink, text, at, start, run, raw);
      sink.mark(ATOM, start, end, 0);
      at = end;
    }
    if (at < to) this.scanner.mask(sink, text, at, to, run, raw);
  }
}
