/**
 * Attributes of HTML start tags: which are translated (docs/contract.md §4), their `attr`
 * drafts, and the `lang`/`dir` patches. Attributes are read from the tag's bytes, so a
 * value's range is exact whatever quoting or case the source used.
 */
import { decodeHTMLAttribute } from 'entities/decode';
import { htmlAttrEscape } from '../core/escape.js';
import type { SegmentSink } from '../core/segment-sink.js';
import type { PlaceholderScanner, TextRun } from '../core/placeholders.js';
import type { TagAttributes } from './tree.js';
import type { RenderTarget } from '../format.js';
import type { Escaper, Patch } from '../core/document.js';
import * as charCodes from '../core/char-codes.js';
// Module-local constants, not imported bindings, for the inner loops (why: core/char-codes.ts).
const { ASCII_END, CARRIAGE_RETURN, CASE_BIT, DOUBLE_QUOTE, EQUALS, FORM_FEED, GREATER_THAN, LESS_THAN, LINE_FEED, LOWER_A, LOWER_Z, SINGLE_QUOTE, SLASH, SPACE, TAB } = charCodes;

/** The whitespace of HTML tags and text (not `\v`, not Unicode spaces). */
export function isSpaceCode(c: number): boolean {
  return c === SPACE || c === TAB || c === LINE_FEED || c === CARRIAGE_RETURN || c === FORM_FEED;
}

/** JavaScript's `\s` (which ends a tag name here), without making a string per character. */
function isRegExpSpace(c: number): boolean {
  if (c < ASCII_END) return c === SPACE || (c >= TAB && c <= CARRIAGE_RETURN);
  return /\s/.test(String.fromCharCode(c));
}


/**
 * Walks the attributes of the start tag `source[start, end)` one at a time, allocating
 * nothing: `next()` fills the fields for the next attribute. The tag name is `<` and up to
 * 255 characters other than `\s / >`; an attribute whose quote is not closed inside the
 * tag ends the walk.
 */
export class AttributeCursor {
  source = '';
  end = 0;
  #i = 0;
  #done = false;
  nameStart = 0;
  nameEnd = 0;
  /** Value range inside the quotes (an empty range at the name's end for a valueless attribute). */
  valueStart = 0;
  valueEnd = 0;
  quote: '"' | "'" | '' | null = null;
  /** Where a new attribute goes: after the last complete attribute, or the tag name. */
  insertAt = 0;

  reset(source: string, start: number, end: number): void {
    this.source = source;
    this.end = end;
    this.#done = false;
    let i = start;
    if (source.charCodeAt(start) === LESS_THAN) {
      const limit = Math.min(end, start + 256);
      i = start + 1;
      while (i < limit) {
        const c = source.charCodeAt(i);
        if (c === SLASH || c === GREATER_THAN || isRegExpSpace(c)) break;
        i++;
      }
    } else {
      i = start + 1;
    }
    this.#i = i;
    this.insertAt = i;
  }

  /** The current attribute's name, lower-cased. */
  name(): string {
    return this.source.slice(this.nameStart, this.nameEnd).toLowerCase();
  }

  next(): boolean {
    if (this.#done) return false;
    const { source, end } = this;
    let i = this.#i;
    while (i < end && (isSpaceCode(source.charCodeAt(i)) || source.charCodeAt(i) === SLASH)) i++;
    if (i >= end || source.charCodeAt(i) === GREATER_THAN) return this.#finish();
    const nameStart = i;
    for (; i < end; i++) {
      const c = source.charCodeAt(i);
      if (isSpaceCode(c) || c === SLASH || c === GREATER_THAN || (c === EQUALS && i !== nameStart)) break;
    }
    this.nameStart = nameStart;
    this.nameEnd = i;
    let j = i;
    while (j < end && isSpaceCode(source.charCodeAt(j))) j++;
    if (source.charCodeAt(j) !== EQUALS) {
      this.valueStart = this.valueEnd = i;
      this.quote = null;
      this.insertAt = this.#i = i;
      return true;
    }
    j++;
    while (j < end && isSpaceCode(source.charCodeAt(j))) j++;
    const q = source.charCodeAt(j);
    if (q === DOUBLE_QUOTE || q === SINGLE_QUOTE) {
      const close = source.indexOf(q === DOUBLE_QUOTE ? '"' : "'", j + 1);
      if (close === -1 || close >= end) return this.#finish();
      this.valueStart = j + 1;
      this.valueEnd = close;
      this.quote = q === DOUBLE_QUOTE ? '"' : "'";
      this.insertAt = this.#i = close + 1;
    } else {
      let k = j;
      while (k < end && !isSpaceCode(source.charCodeAt(k)) && source.charCodeAt(k) !== GREATER_THAN) k++;
      this.valueStart = j;
      this.valueEnd = k;
      this.quote = '';
      this.insertAt = this.#i = k;
    }
    return true;
  }

  #finish(): false {
    this.#done = true;
    return false;
  }
}

const TRANSLATABLE_NAMES = ['title', 'aria-label', 'aria-description', 'alt', 'placeholder', 'label', 'value', 'content'];

/**
 * The name `source[start, end)` lower-cased, when it is one `isTranslatableAttribute`
 * may accept, found without slicing. None of these names holds a `k` (U+212A KELVIN SIGN
 * is the only non-ASCII character that lower-cases to ASCII), so ASCII case folding finds
 * every spelling that lower-cases to one of them.
 */
function translatableName(source: string, start: number, end: number): string | undefined {
  const length = end - start;
  for (const name of TRANSLATABLE_NAMES) {
    if (name.length === length && equalsIgnoringAsciiCase(name, source, start)) return name;
  }
  return undefined;
}

/** Whether `source` at `start` holds `lower` (lower-case ASCII) in any ASCII case. */
function equalsIgnoringAsciiCase(lower: string, source: string, start: number): boolean {
  for (let i = 0; i < lower.length; i++) {
    const n = lower.charCodeAt(i);
    const c = source.charCodeAt(start + i);
    if (c !== n && !(n >= LOWER_A && n <= LOWER_Z && c === n - CASE_BIT)) return false;
  }
  return true;
}

function isTranslatableAttribute(tag: string, name: string, attribs: TagAttributes): boolean {
  switch (name) {
    case 'title':
    case 'aria-label':
    case 'aria-description':
      return true;
    case 'alt':
      return tag === 'img' || tag === 'area' || tag === 'input';
    case 'placeholder':
      return tag === 'input' || tag === 'textarea';
    case 'label':
      return tag === 'option' || tag === 'track';
    case 'value':
      return tag === 'input' && ['button', 'submit', 'reset'].includes((attribs.type ?? '').toLowerCase());
    case 'content': {
      if (tag !== 'meta') return false;
      const key = (attribs.name ?? attribs.property ?? '').toLowerCase();
      return key === 'description' || key === 'og:title' || key === 'og:description';
    }
    default:
      return false;
  }
}

/** Escapers by the value's quote (made once: every `attr` draft of a page shares three). */
/** Attribute values: references decoded as in an attribute. */
const ATTRIBUTE_VALUE: TextRun = { inSource: true, decode: decodeHTMLAttribute };

const ATTRIBUTE_ESCAPERS: Record<'"' | "'" | '', Escaper> = { '"': htmlAttrEscape('"'), "'": htmlAttrEscape("'"), '': htmlAttrEscape('') };


/**
 * The translatable attribute values found in start tags, waiting to become `attr`
 * segments: an inline tag's come after the segment of the text run around it, so that
 * segments stay in source order. Parallel arrays, reused.
 */
export class AttributeList {
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  readonly quotes: ('"' | "'" | '')[] = [];
  readonly contexts: string[] = [];
  length = 0;
  /** The one cursor of the document's reader: attribute walks never nest. */
  readonly cursor = new AttributeCursor();
  /**
   * `tag@attribute` hints of this document, made once per pair rather than once per
   * attribute; it goes with the document, so a stream of made-up names leaves nothing.
   */
  readonly #hints = new Map<string, Map<string, string>>();

  #hint(tag: string, attribute: string): string {
    let byAttribute = this.#hints.get(tag);
    if (!byAttribute) this.#hints.set(tag, (byAttribute = new Map()));
    let hint = byAttribute.get(attribute);
    if (hint === undefined) byAttribute.set(attribute, (hint = `${tag}@${attribute}`));
    return hint;
  }

  /** Adds each translatable attribute of the start tag `source[start, end)`, its value trimmed (an empty one is not added). */
  addFrom(source: string, tag: string, start: number, end: number, attribs: TagAttributes): void {
    const cursor = this.cursor;
    cursor.reset(source, start, end);
    while (cursor.next()) {
      const quote = cursor.quote;
      if (quote === null) continue;
      const name = translatableName(source, cursor.nameStart, cursor.nameEnd);
      if (name === undefined || !isTranslatableAttribute(tag, name, attribs)) continue;
      let s = cursor.valueStart;
      let e = cursor.valueEnd;
      while (s < e && isSpaceCode(source.charCodeAt(s))) s++;
      while (e > s && isSpaceCode(source.charCodeAt(e - 1))) e--;
      if (s === e) continue;
      const i = this.length++;
      this.starts[i] = s;
      this.ends[i] = e;
      this.quotes[i] = quote;
      this.contexts[i] = this.#hint(tag, name);
    }
  }

  /** Gives every attribute to `sink` as an `attr` segment, and empties the list. */
  flushTo(sink: SegmentSink, placeholders: PlaceholderScanner, source: string): void {
    for (let i = 0; i < this.length; i++) {
      const start = this.starts[i]!;
      const end = this.ends[i]!;
      sink.begin(start, end, 'attr', ATTRIBUTE_ESCAPERS[this.quotes[i]!], this.contexts[i]!, true);
      placeholders.mask(sink, source, start, end, ATTRIBUTE_VALUE);
      sink.commit();
    }
    this.length = 0;
  }
}

/** `dir="rtl"` added to a start tag for a right-to-left target (nothing for another). */
class AddDirection implements Patch {
  constructor(
    readonly start: number,
    readonly end: number,
  ) {}

  render(target: RenderTarget): string {
    return target.rtl ? ' dir="rtl"' : '';
  }
}

/**
 * An existing `dir` value: `rtl` for a right-to-left target; for another, the original,
 * or `ltr` in place of an `<html>` tag's `rtl` (the page is no longer right-to-left).
 */
class SetDirection implements Patch {
  constructor(
    readonly start: number,
    readonly end: number,
    private readonly original: string,
    private readonly ltrInsteadOfRtl: boolean,
  ) {}

  render(target: RenderTarget): string {
    if (target.rtl) return 'rtl';
    return this.ltrInsteadOfRtl && this.original.toLowerCase() === 'rtl' ? 'ltr' : this.original;
  }
}

/** The `<html>` tag's `lang` value becomes the target code. */
class SetLanguage implements Patch {
  constructor(
    readonly start: number,
    readonly end: number,
  ) {}

  render(target: RenderTarget): string {
    return target.code;
  }
}

/**
 * The lang/dir patches of the `<html>` start tag (`lang` set to the target when present,
 * `dir` set or added) or of a fragment's top-level element (`dir` only), pushed to
 * `patches`. Patches are small class instances, not closures: a fragment of 2 MiB may
 * have 10⁵ top-level elements.
 */
export function directionPatches(cursor: AttributeCursor, source: string, tag: string, start: number, end: number, patches: Patch[]): void {
  let dirStart = -1;
  let dirEnd = -1;
  let langStart = -1;
  let langEnd = -1;
  cursor.reset(source, start, end);
  while (cursor.next()) {
    if (cursor.quote === null) continue;
    const name = cursor.name();
    if (name === 'dir' && dirStart < 0) {
      dirStart = cursor.valueStart;
      dirEnd = cursor.valueEnd;
    } else if (name === 'lang' && langStart < 0) {
      langStart = cursor.valueStart;
      langEnd = cursor.valueEnd;
    }
  }
  const isHtml = tag === 'html';
  if (isHtml && langStart >= 0) patches.push(new SetLanguage(langStart, langEnd));
  if (dirStart >= 0) patches.push(new SetDirection(dirStart, dirEnd, source.slice(dirStart, dirEnd), isHtml));
  else patches.push(new AddDirection(cursor.insertAt, cursor.insertAt));
}
