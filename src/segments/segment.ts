/**
 * Segments are what an engine translates: human text in which inline markup and
 * protected spans are opaque segment marks (the contract, docs/contract.md and
 * docs/formats.md, calls them tokens; so do the messages below, which models and users
 * read):
 *  - `<gN>` … `</gN>`: a paired mark wrapping translatable text (a link, emphasis).
 *    The model may move a pair, but must keep it exactly once and properly nested.
 *  - `<xN/>`: an atomic mark (a placeholder, inline code, an image, a line break).
 *    It must appear exactly once; it may move.
 * Numbering is per segment, 1-based, in order of appearance.
 *
 * "Mark", not "token": a token is what a tokenizer counts (src/tokens.ts).
 */
/** Every kind of segment; a kind crosses between threads as its index here (translation/packed-segments.ts). */
export const SEGMENT_KINDS = ['block', 'heading', 'cell', 'attr', 'value', 'line'] as const;
export type SegmentKind = (typeof SEGMENT_KINDS)[number];

/**
 * One counted message in a segment (docs/formats.md, "Plurals"): an ICU `plural` or
 * `selectordinal`, a family of i18next plural keys in JSON, or a locale file's plural
 * forms (gettext `msgstr[N]`, a Rails plural hash: formats/entries/plural-value.ts). Each branch is a pair of
 * the segment's text, `<gN>` … `</gN>`, named by its selector (`one`, `=0`).
 */
export interface PluralMessage {
  /** `cardinal` for `plural` and i18next's `_one`…, `ordinal` for `selectordinal` and `_ordinal_one`…. */
  readonly type: 'cardinal' | 'ordinal';
  /**
   * How a new branch's opening bytes are written: ICU `few {`, i18next `"key_few": "`,
   * a locale file's forms `few` and a separator (`entries`).
   */
  readonly style: 'icu' | 'i18next' | 'entries';
  /** In source order. */
  readonly branches: readonly PluralBranch[];
}

export interface PluralBranch {
  /** `zero` … `other`, or an exact value `=0`. */
  readonly selector: string;
  /** The N of the branch's `<gN>` pair. */
  readonly pair: number;
}

export interface Segment {
  /** `s1`, `s2`, … in document order. */
  readonly id: string;
  /** Masked text: the words plus segment marks. */
  readonly text: string;
  readonly kind: SegmentKind;
  /**
   * Where the text sits, for tests and debugging: `img@alt`, an attribute's name. Not sent
   * to models (decision 0005); JSON values have none (decision 0007).
   */
  readonly ctx?: string;
  /**
   * What a locale file says about the entry for translators: its developer's notes
   * (gettext `#.` and `msgctxt`, XLIFF `<note>`, comments) and, for a short string, its
   * key (`checkout.pay_button`). Sent to models with the segment and part of the memory
   * key (docs/models.md "Notes from locale files").
   */
  readonly note?: string;
  /** Headings, table cells and attributes must stay on one line. */
  readonly singleLine?: boolean;
  /** The counted messages in the text, in order of their first branch; absent when there are none. */
  readonly plurals?: readonly PluralMessage[];
}

/** Every segment mark of a text: `<gN>`, `</gN>`, `<xN/>`. Global: use with matchAll or a copy. */
export const SEGMENT_MARK_PATTERN = /<\/?g\d+>|<x\d+\/>/g;

/** The marks of a masked text, in order of appearance. */
export function marksOf(text: string): string[] {
  return text.match(SEGMENT_MARK_PATTERN) ?? [];
}

/**
 * Checks that `translated` keeps the marks of `source`: every atomic mark exactly
 * once, every pair exactly once, opened before it is closed and properly nested, and
 * no mark that the source does not have. Returns a human-readable problem, or null.
 */
export function markProblem(source: string, translated: string): string | null {
  // The usual answer first: the source's marks, in the source's order.
  const sourceMarks = marksOf(source);
  const translatedMarks = marksOf(translated);
  if (sameMarks(sourceMarks, translatedMarks) && wellFormed(sourceMarks)) return null;
  return firstProblem(new Set(sourceMarks), translatedMarks);
}

function sameMarks(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const SLASH = 47;
const LETTER_G = 103;

/** The number in a mark (`<x12/>`, `<g3>`, `</g3>`). */
function markNumber(mark: string): number {
  let n = 0;
  for (let i = mark.charCodeAt(1) === SLASH ? 3 : 2, c = mark.charCodeAt(i); c >= 48 && c <= 57; c = mark.charCodeAt(++i)) {
    n = 10 * n + c - 48;
  }
  return n;
}

/**
 * No mark twice, each `</gN>` closing the innermost open pair: what firstProblem accepts
 * for a text against itself. Linear, on numbers: a segment can hold 10⁵ marks (one run
 * of inline tags in a 2 MiB page), and the Sets of firstProblem took a second for them.
 */
function wellFormed(marks: readonly string[]): boolean {
  const count = marks.length;
  const seenAtoms = new Uint8Array(count + 1);
  const seenOpens = new Uint8Array(count + 1);
  const seenCloses = new Uint8Array(count + 1);
  const open: number[] = [];
  for (let i = 0; i < count; i++) {
    const mark = marks[i]!;
    const n = markNumber(mark);
    // A number past the count is not one extraction makes: let firstProblem decide.
    if (n > count) return false;
    if (mark.charCodeAt(1) === SLASH) {
      if (seenCloses[n] || open.pop() !== n) return false;
      seenCloses[n] = 1;
    } else if (mark.charCodeAt(1) === LETTER_G) {
      if (seenOpens[n]) return false;
      seenOpens[n] = 1;
      open.push(n);
    } else {
      if (seenAtoms[n]) return false;
      seenAtoms[n] = 1;
    }
  }
  return true;
}

function firstProblem(expected: ReadonlySet<string>, translatedMarks: readonly string[]): string | null {
  const seen = new Set<string>();
  const open: string[] = [];
  for (const mark of translatedMarks) {
    if (!expected.has(mark)) return `unexpected token ${mark}`;
    if (seen.has(mark)) return `token ${mark} appears more than once`;
    seen.add(mark);
    if (mark.startsWith('</')) {
      const name = mark.slice(2, -1);
      if (open.pop() !== name) return `token ${mark} is not properly nested`;
    } else if (mark.startsWith('<g')) {
      open.push(mark.slice(1, -1));
    }
  }
  for (const mark of expected) {
    if (!seen.has(mark)) return `missing token ${mark}`;
  }
  return null;
}
