/**
 * Segments are what an engine translates: human text in which inline markup and
 * protected spans are opaque tokens.
 *  - `<gN>` … `</gN>`: a paired token wrapping translatable text (a link, emphasis).
 *    The model may move a pair, but must keep it exactly once and properly nested.
 *  - `<xN/>`: an atomic token (a placeholder, inline code, an image, a line break).
 *    It must appear exactly once; it may move.
 * Numbering is per segment, 1-based, in order of appearance.
 */
export type SegmentKind = 'block' | 'heading' | 'cell' | 'attr' | 'value' | 'line';

export interface Segment {
  /** `s1`, `s2`, … in document order. */
  readonly id: string;
  /** Masked text: the words plus tokens. */
  readonly text: string;
  readonly kind: SegmentKind;
  /**
   * Where the text sits, for tests and debugging: `img@alt`, an attribute's name. Not sent
   * to models (decision 0005); JSON values have none (decision 0007).
   */
  readonly ctx?: string;
  /** Headings, table cells and attributes must stay on one line. */
  readonly singleLine?: boolean;
}

export const TOKEN_PATTERN = /<\/?g\d+>|<x\d+\/>/g;

/** The tokens of a masked text, in order of appearance. */
export function tokensOf(text: string): string[] {
  return text.match(TOKEN_PATTERN) ?? [];
}

/**
 * Checks that `translated` keeps the tokens of `source`: every atomic token exactly
 * once, every pair exactly once, opened before it is closed and properly nested, and
 * no token that the source does not have. Returns a human-readable problem, or null.
 */
export function tokenProblem(source: string, translated: string): string | null {
  // The usual answer first: the source's tokens, in the source's order.
  const sourceTokens = tokensOf(source);
  const translatedTokens = tokensOf(translated);
  if (sameTokens(sourceTokens, translatedTokens) && wellFormed(sourceTokens)) return null;
  return firstProblem(new Set(sourceTokens), translatedTokens);
}

function sameTokens(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const SLASH = 47;
const LETTER_G = 103;

/** The number in a token (`<x12/>`, `<g3>`, `</g3>`). */
function tokenNumber(token: string): number {
  let n = 0;
  for (let i = token.charCodeAt(1) === SLASH ? 3 : 2, c = token.charCodeAt(i); c >= 48 && c <= 57; c = token.charCodeAt(++i)) {
    n = 10 * n + c - 48;
  }
  return n;
}

/**
 * No token twice, each `</gN>` closing the innermost open pair: what firstProblem accepts
 * for a text against itself. Linear, on numbers: a segment can hold 10⁵ tokens (one run
 * of inline tags in a 2 MiB page), and the Sets of firstProblem took a second for them.
 */
function wellFormed(tokens: readonly string[]): boolean {
  const count = tokens.length;
  const seenAtoms = new Uint8Array(count + 1);
  const seenOpens = new Uint8Array(count + 1);
  const seenCloses = new Uint8Array(count + 1);
  const open: number[] = [];
  for (let i = 0; i < count; i++) {
    const token = tokens[i]!;
    const n = tokenNumber(token);
    // A number past the count is not one extraction makes: let firstProblem decide.
    if (n > count) return false;
    if (token.charCodeAt(1) === SLASH) {
      if (seenCloses[n] || open.pop() !== n) return false;
      seenCloses[n] = 1;
    } else if (token.charCodeAt(1) === LETTER_G) {
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

function firstProblem(expected: ReadonlySet<string>, translatedTokens: readonly string[]): string | null {
  const seen = new Set<string>();
  const open: string[] = [];
  for (const token of translatedTokens) {
    if (!expected.has(token)) return `unexpected token ${token}`;
    if (seen.has(token)) return `token ${token} appears more than once`;
    seen.add(token);
    if (token.startsWith('</')) {
      const name = token.slice(2, -1);
      if (open.pop() !== name) return `token ${token} is not properly nested`;
    } else if (token.startsWith('<g')) {
      open.push(token.slice(1, -1));
    }
  }
  for (const token of expected) {
    if (!seen.has(token)) return `missing token ${token}`;
  }
  return null;
}
