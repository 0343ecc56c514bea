/**
 * Counted messages in a target's plural forms (docs/formats.md, "Plurals"; CONTRACT §5).
 *
 * A segment's plural messages are pairs of its masked text, one per branch (`<g2>` …
 * `</g2>` for `one {# item}`). For a target, `shapePlurals` rewrites that text so the
 * message has exactly the target's CLDR categories plus the source's exact branches:
 * a branch the target also has stays in place; one it lacks is left out (with the
 * whitespace after it, which its close mark holds); one it needs is inserted just
 * before `other`, in canonical order, as a copy of `other`'s text under new mark
 * numbers. The new marks are aliases: their bytes are those of a source mark (`other`'s
 * opening with the selector word replaced, the separator the source writes between
 * branches), so the renderer can write them in any format without knowing its syntax.
 * An engine translates the shaped text like any other; the pseudo engine's answer for a
 * new branch is then the pseudo text of `other`, as the contract asks.
 *
 * When the target's categories are the source's, the text is unchanged and the
 * skeleton stays byte-exact.
 */
import { pluralCategories, type PluralCategory } from '../../plurals/index.js';
import type { PluralMessage } from '../../segments/segment.js';
import { tooComplex } from './limits.js';
import { FORM_END } from './plural-forms-text.js';

/**
 * The most characters a shaped text may have per character of its source. Each new
 * branch copies `other`, so messages nested in `other` multiply (Arabic adds four copies
 * a level): two levels are ×25 at most, and a hostile text nested 32 deep must not grow
 * as 5³². Past it the document is refused as too complex (422).
 */
const MAX_SHAPE_GROWTH = 64;
/** A floor for short texts, and a ceiling for long ones, of the shaped text's length. */
const MIN_SHAPE_CHARS = 65_536;
const MAX_SHAPE_CHARS = 4_000_000;

/** Where a mark of a shaped text takes its bytes from. */
export interface MarkAlias {
  /** A mark of the source segment (`<g3>`, `</g2>`, `<x4/>`) whose bytes are written… */
  readonly mark?: string;
  /** …with its selector word replaced by this category (a new branch's opening). */
  readonly selector?: PluralCategory;
  readonly style?: PluralMessage['style'];
  /** Bytes given as they are (the separator of a message whose only branch is `other`). */
  readonly literal?: string;
}

export interface PluralShape {
  /** The segment's text with each message's branches as the target needs them. */
  readonly text: string;
  /** Whether `text` differs from the source segment's. */
  readonly changed: boolean;
  /** The marks of `text` that are not the source's own, or that take another source mark's bytes. */
  readonly aliases: ReadonlyMap<string, MarkAlias>;
  /** Each branch of `text` (pair number → its selector and the message's type), for a model to word each form. */
  readonly branches: ReadonlyMap<number, { readonly selector: string; readonly type: PluralMessage['type'] }>;
}

/** The categories a language needs for one message, as `shapePlurals` asks for them. */
export type CategoriesOf = (type: PluralMessage['type']) => readonly PluralCategory[];

/**
 * An exact branch is kept in every target: ICU `=N`, i18next's `_zero` and a Rails
 * hash's `zero` (both "exactly 0" in every language; docs/formats.md).
 */
function isExactSelector(selector: string, style: PluralMessage['style']): boolean {
  return selector.charCodeAt(0) === 61 /* = */ || (style !== 'icu' && selector === 'zero');
}

const MARK = /<\/?g(\d+)>|<x(\d+)\/>/g;

/**
 * The text of `segment` shaped for `language` (or for `categoriesOf`, in tests); undefined
 * for a segment without plural messages.
 */
export function shapePlurals(
  segment: { readonly text: string; readonly plurals?: readonly PluralMessage[] | undefined },
  language: string | CategoriesOf,
): PluralShape | undefined {
  const messages = segment.plurals;
  if (messages === undefined || messages.length === 0) return undefined;
  const categoriesOf: CategoriesOf = typeof language === 'string' ? (type) => pluralCategories(language, type) : language;
  return new Shaper(segment.text, messages, categoriesOf).shape();
}

/**
 * What the memory key must hold for a segment's plural shape in a target: each message's
 * type, style and source selectors, and the target's categories for it. The shaped text
 * alone does not say which branch is which (`one` and `=1` mask alike).
 */
export function pluralSignature(messages: readonly PluralMessage[] | undefined, language: string): string {
  if (messages === undefined || messages.length === 0) return '';
  return messages
    .map((m) => `${m.type}:${m.style}:${m.branches.map((b) => b.selector).join(',')}>${pluralCategories(language, m.type).join(',')}`)
    .join(';');
}

class Shaper {
  readonly #byFirstPair = new Map<number, PluralMessage>();
  readonly #aliases = new Map<string, MarkAlias>();
  /** Source marks given another source mark's bytes (the close of a new last branch); kept apart so copies resolve to the originals. */
  readonly #overrides = new Map<string, MarkAlias>();
  readonly #branches = new Map<number, { selector: string; type: PluralMessage['type'] }>();
  #lastAtom = 0;
  #lastPair = 0;
  #changed = false;
  readonly #maxChars: number;

  constructor(
    private readonly text: string,
    messages: readonly PluralMessage[],
    private readonly categoriesOf: CategoriesOf,
  ) {
    for (const message of messages) {
      if (message.branches.length > 0) this.#byFirstPair.set(message.branches[0]!.pair, message);
      for (const branch of message.branches) this.#branches.set(branch.pair, { selector: branch.selector, type: message.type });
    }
    this.#maxChars = Math.min(MAX_SHAPE_CHARS, Math.max(MIN_SHAPE_CHARS, MAX_SHAPE_GROWTH * text.length));
    for (const match of text.matchAll(MARK)) {
      if (match[1] !== undefined) this.#lastPair = Math.max(this.#lastPair, Number(match[1]));
      else this.#lastAtom = Math.max(this.#lastAtom, Number(match[2]));
    }
  }

  shape(): PluralShape {
    const text = this.#rewrite(0, this.text.length);
    const aliases = new Map([...this.#aliases, ...this.#overrides]);
    return { text, changed: this.#changed || text !== this.text, aliases, branches: this.#branches };
  }

  /** `text[from, to)` with every message that starts in it shaped. */
  #rewrite(from: number, to: number): string {
    const text = this.text;
    let out = '';
    let last = from;
    const marks = new RegExp(MARK.source, 'g');
    marks.lastIndex = from;
    for (let match = marks.exec(text); match !== null && match.index < to; match = marks.exec(text)) {
      if (match[1] === undefined || match[0].charCodeAt(1) === 47 /* / */) continue;
      const message = this.#byFirstPair.get(Number(match[1]));
      if (message === undefined) continue;
      const end = this.#messageEnd(message, match.index);
      if (end < 0 || end > to) continue;
      out += text.slice(last, match.index) + this.#shapeMessage(message, match.index);
      last = end;
      marks.lastIndex = end;
    }
    return out + text.slice(last, to);
  }

  /** Where the message whose first branch opens at `at` ends (after its last close), or -1. */
  #messageEnd(message: PluralMessage, at: number): number {
    let end = at;
    for (const { pair } of message.branches) {
      const open = `<g${pair}>`;
      if (!this.text.startsWith(open, end)) return -1;
      const close = this.text.indexOf(`</g${pair}>`, end + open.length);
      if (close < 0) return -1;
      end = close + `</g${pair}>`.length;
    }
    return end;
  }

  #shapeMessage(message: PluralMessage, at: number): string {
    const { branches, style } = message;
    const bodies: string[] = [];
    let position = at;
    for (const { pair } of branches) {
      const bodyStart = position + `<g${pair}>`.length;
      const bodyEnd = this.text.indexOf(`</g${pair}>`, bodyStart);
      bodies.push(this.#rewrite(bodyStart, bodyEnd));
      position = bodyEnd + `</g${pair}>`.length;
    }
    const wrap = (index: number): string => `<g${branches[index]!.pair}>${bodies[index]!}</g${branches[index]!.pair}>`;
    const otherIndex = branches.findIndex((b) => b.selector === 'other');
    // Without `other` the message is not valid ICU (nor an i18next family): left as it is.
    if (otherIndex < 0) return branches.map((_, i) => wrap(i)).join('');
    const needed = this.categoriesOf(message.type);
    const has = new Set(branches.filter((b) => !isExactSelector(b.selector, style)).map((b) => b.selector));
    const missing = needed.filter((category) => !has.has(category));
    const keep = branches.map((b) => isExactSelector(b.selector, style) || !isCategory(b.selector) || needed.includes(b.selector as PluralCategory));
    if (missing.length === 0 && keep.every(Boolean)) return branches.map((_, i) => wrap(i)).join('');
    this.#changed = true;

    const other = branches[otherIndex]!;
    const separator: MarkAlias =
      otherIndex > 0
        ? { mark: `</g${branches[otherIndex - 1]!.pair}>` }
        : otherIndex < branches.length - 1
          ? { mark: `</g${other.pair}>` }
          : { literal: style === 'icu' ? '} ' : style === 'entries' ? FORM_END : '", "' };
    let out = '';
    branches.forEach((branch, i) => {
      if (i === otherIndex) {
        for (const category of missing) {
          const pair = ++this.#lastPair;
          this.#aliases.set(`<g${pair}>`, { mark: `<g${other.pair}>`, selector: category, style });
          this.#aliases.set(`</g${pair}>`, separator);
          this.#branches.set(pair, { selector: category, type: message.type });
          out += `<g${pair}>${this.#renumber(bodies[otherIndex]!)}</g${pair}>`;
          if (out.length > this.#maxChars) throw tooComplex('the plural forms of ICU messages nested in one another', this.#maxChars);
        }
      }
      if (keep[i]) out += wrap(i);
    });
    // The source's last branch left out: the last one written ends as it ended (no
    // separator before the message's closing `}`, no comma before an object's `}`).
    const lastKept = keep.lastIndexOf(true);
    if (!keep[branches.length - 1] && lastKept >= 0) {
      this.#overrides.set(`</g${branches[lastKept]!.pair}>`, { mark: `</g${branches[branches.length - 1]!.pair}>` });
    }
    return out;
  }

  /** A copy of `body` with every mark under a new number, each aliased to the bytes of the one it copies. */
  #renumber(body: string): string {
    const pairs = new Map<string, number>();
    return body.replace(MARK, (mark, pairDigits: string | undefined) => {
      const source = this.#aliases.get(mark) ?? { mark };
      if (pairDigits === undefined) {
        const atom = `<x${++this.#lastAtom}/>`;
        this.#aliases.set(atom, source);
        return atom;
      }
      let pair = pairs.get(pairDigits);
      if (pair === undefined) {
        pair = ++this.#lastPair;
        pairs.set(pairDigits, pair);
        const named = this.#branches.get(Number(pairDigits));
        if (named) this.#branches.set(pair, named);
      }
      const copy = mark.charCodeAt(1) === 47 ? `</g${pair}>` : `<g${pair}>`;
      this.#aliases.set(copy, source);
      return copy;
    });
  }
}

const CATEGORY_WORDS = new Set(['zero', 'one', 'two', 'few', 'many', 'other']);
const isCategory = (selector: string): boolean => CATEGORY_WORDS.has(selector);

/** An ICU plural header atom's bytes: `{count, plural, ` or `{n, selectordinal,` (an `offset:` may follow). */
const ICU_HEADER = /^\{\s*[\p{L}\p{N}_$.-]+\s*,\s*(plural|selectordinal)\s*,/u;
/** A branch opening's bytes: the selector, white space, `{`. */
const ICU_BRANCH_OPEN = /^(=?[\p{L}\p{N}_.-]+)\s*\{$/u;
const ICU_CLOSE = /^\}$/;

/**
 * The ICU plural messages of a masked text, read from its marks' bytes: a header atom
 * (`{n, plural, `), directly followed by one pair per branch (`one {` … `} `), then
 * the closing atom (`}`), as core/placeholders.ts masks them. Undefined when none.
 */
export function findIcuPlurals(text: string, bytesOf: (mark: string) => string | undefined): PluralMessage[] | undefined {
  let messages: PluralMessage[] | undefined;
  const atoms = /<x\d+\/>/g;
  for (let match = atoms.exec(text); match !== null; match = atoms.exec(text)) {
    const header = ICU_HEADER.exec(bytesOf(match[0]) ?? '');
    if (!header) continue;
    const branches: { selector: string; pair: number }[] = [];
    let at = match.index + match[0].length;
    const open = /<g(\d+)>/y;
    for (;;) {
      open.lastIndex = at;
      const opening = open.exec(text);
      if (!opening) break;
      const selector = ICU_BRANCH_OPEN.exec(bytesOf(opening[0]) ?? '')?.[1];
      const close = `</g${opening[1]}>`;
      const closeAt = text.indexOf(close, at);
      if (selector === undefined || closeAt < 0) {
        branches.length = 0;
        break;
      }
      branches.push({ selector, pair: Number(opening[1]) });
      at = closeAt + close.length;
    }
    const closing = /<x\d+\/>/y;
    closing.lastIndex = at;
    const end = closing.exec(text);
    if (branches.length === 0 || !end || !ICU_CLOSE.test(bytesOf(end[0]) ?? '')) continue;
    (messages ??= []).push({ type: header[1] === 'plural' ? 'cardinal' : 'ordinal', style: 'icu', branches });
  }
  return messages;
}

/** The bytes of a new branch's opening: `other`'s with the selector word replaced. */
export function renameSelector(bytes: string, category: PluralCategory, style: PluralMessage['style']): string {
  return style !== 'i18next' ? category + bytes.replace(/^other/, '') : bytes.replace(/_other(?=")/, `_${category}`);
}

/**
 * A translation of an i18next key family with nothing outside its branches: the family's
 * segment runs from its first key to its last value, so text a model wrote before the
 * first branch or between two would land among the keys and break the JSON. Only the
 * branches (and what they hold) are kept.
 */
export function insideBranchesOnly(translated: string): string {
  let out = '';
  let depth = 0;
  let last = 0;
  for (const match of translated.matchAll(/<\/?g\d+>|<x\d+\/>/g)) {
    if (depth > 0) out += translated.slice(last, match.index);
    if (match[0].charCodeAt(1) === 47 /* / */) depth--;
    else if (match[0].charCodeAt(1) === 103 /* g */) depth++;
    out += match[0];
    last = match.index + match[0].length;
  }
  return depth > 0 ? out + translated.slice(last) : out;
}
