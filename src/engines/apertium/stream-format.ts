/**
 * Our masked segments in Apertium's own stream format and back (docs/engine-notes.md,
 * "Apertium"). Apertium translates text in which three things are not words:
 *
 *  - `\X`: an escaped reserved character, given back as itself;
 *  - `[…]`: a superblank, never translated, always given back, and in its original order
 *    relative to the other blanks (words may move around it);
 *  - `[[…]]word[[/]]`: a word-bound blank, which travels with the word(s) it wraps when
 *    the transfer rules reorder, drop or split words — how `-f html` moves a `<b>` with
 *    its adjective.
 *
 * So a `<gN>` pair becomes a word-bound blank on each word it wraps (`[[g1; g2]]` names
 * every pair around the word, outermost first), and anything that must come back
 * untouched — an atomic mark `<xN/>`, a pair that wraps no words, line breaks, a glossary
 * translation — becomes a superblank holding an index into a table of literals, so no
 * text of ours ever passes through Apertium's escaping. `moveMarks: false` encodes the
 * pairs' marks as literals too: the words are translated and reordered between marks
 * that stay in the source's order, which is always well nested (the fallback when a
 * reordering lost or split a pair).
 */
import { findTerms } from '../../segments/terms.js';

export interface EncodedSegment {
  /** The stream text, without the `\0` that ends it on the pipe. */
  readonly stream: string;
  /** What superblank `[#i]` stands for, with the pairs around it in the source. */
  readonly literals: readonly Literal[];
  /** Pair number → rank of its opening in the source, to nest pairs on a word outermost first. */
  readonly pairOrder: ReadonlyMap<number, number>;
  /** The segment's own leading and trailing whitespace, given back as it was. */
  readonly lead: string;
  readonly trail: string;
  /** Whether the source has runs of two spaces (otherwise runs left by dropped words are closed up). */
  readonly keepsDoubleSpaces: boolean;
  /** Pair marks are pinned literals (`moveMarks: false`). */
  readonly pinned: boolean;
  /** Pairs whose source has whitespace just inside a mark (kept there). */
  readonly edgeSpaced: ReadonlySet<number>;  /** Pairs whose source has whitespace (or the segment's edge) on both sides outside them. */
  readonly spacedPairs: ReadonlySet<number>;
}

/** A term and the words that replace it before translation. */
export interface FixedTerm {
  readonly term: string;
  readonly translation: string;
}

export interface EncodeOptions {
  /** Pairs move with their words (true), or stay where the source has them (false). */
  readonly moveMarks: boolean;
  /** Terms written as their required translation, untranslated (glossary entries). */
  readonly fixedTerms?: readonly FixedTerm[];
}

const MARK = /<(\/?)g(\d+)>|<x(\d+)\/>/g;
const PAIR_MARK = /^<\/?g\d+>$/;
/** Stream-format characters that must be escaped to stay text (apertium-destxt escapes these). */
const RESERVED = /[\\[\]^$@/<>{}]/g;
/** Characters some stages treat as operators even escaped (`~` joins words in post-generation). */
const OPERATOR = /[~\u0000]/;
/** Apertium uses letters and digits to find words; text without either has nothing to translate. */
const WORDLIKE = /[\p{L}\p{N}]/u;

/** Text that comes back as it was, and the pairs around it in the source (it stays inside them). */
export interface Literal {
  readonly text: string;
  readonly pairs: readonly number[];
}

type Piece = { kind: 'text' | 'literal'; text: string; pairs: readonly number[] };

export function encodeSegment(text: string, options: EncodeOptions): EncodedSegment {
  const lead = /^\s*/.exec(text)![0];
  const core = text.slice(lead.length).trimEnd();
  const trail = text.slice(lead.length + core.length);
  const pairOrder = new Map<number, number>();
  const literals: Literal[] = [];
  let stream = '';
  for (const piece of pieces(core, options.moveMarks, pairOrder)) {
    if (piece.kind === 'literal') {
      stream += literal(literals, piece.text, piece.pairs);
      continue;
    }
    stream += encodeText(piece.text, piece.pairs, literals, options.fixedTerms ?? []);
  }
  // A blank after the last word: without one the final punctuation is lost (Apertium's
  // own deformatter ends every text with a blank for the same reason).
  stream += '[]';
  const edgeSpaced = new Set([...core.matchAll(/<g(\d+)>\s|\s<\/g(\d+)>/g)].map((m) => Number(m[1] ?? m[2])));
  const spacedPairs = new Set<number>();
  for (const match of core.matchAll(/(?:^|\s)<g(\d+)>/g)) {
    const n = match[1]!;
    if (new RegExp(`</g${n}>(?:\\s|[.,;:!?)]|$)`).test(core)) spacedPairs.add(Number(n));
  }
  return {
    stream,
    literals,
    pairOrder,
    lead,
    trail,
    keepsDoubleSpaces: core.includes('  '),
    pinned: !options.moveMarks,
    edgeSpaced,
    spacedPairs,
  };
}

function literal(literals: Literal[], text: string, pairs: readonly number[]): string {
  literals.push({ text, pairs });
  return `[#${literals.length - 1}]`;
}

/**
 * The segment cut into text (with the pairs around it) and literals: atomic marks, and
 * pairs whose content has no words (a link around an image), each kept whole.
 */
function pieces(text: string, moveMarks: boolean, pairOrder: Map<number, number>): Piece[] {
  const out: Piece[] = [];
  const open: number[] = [];
  let last = 0;
  const matches = [...text.matchAll(MARK)];
  for (let i = 0; i < matches.length; i++) {
    const match = matches[i]!;
    if (match.index > last) out.push({ kind: 'text', text: text.slice(last, match.index), pairs: open.slice() });
    last = match.index + match[0].length;
    if (match[3] !== undefined) {
      out.push({ kind: 'literal', text: match[0], pairs: open.slice() });
      continue;
    }
    const pair = Number(match[2]);
    if (match[1] === '/') {
      const at = open.lastIndexOf(pair);
      if (at >= 0) open.splice(at, 1);
      if (!moveMarks) out.push({ kind: 'literal', text: match[0], pairs: [] });
      continue;
    }
    pairOrder.set(pair, pairOrder.size);
    const close = text.indexOf(`</g${pair}>`, last);
    if (!moveMarks || close < 0 || !WORDLIKE.test(text.slice(last, close).replace(MARK, ''))) {
      if (moveMarks && close >= 0) {
        // A pair with no words in it travels as one literal, with everything inside.
        const end = close + `</g${pair}>`.length;
        out.push({ kind: 'literal', text: text.slice(match.index, end), pairs: open.slice() });
        last = end;
        while (i + 1 < matches.length && matches[i + 1]!.index < end) i++;
        continue;
      }
      out.push({ kind: 'literal', text: match[0], pairs: open.slice() });
      continue;
    }
    open.push(pair);
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last), pairs: open.slice() });
  return out;
}

/** A run of text: spaces stay blanks, other whitespace and fixed terms become literals, words are escaped. */
function encodeText(text: string, pairs: readonly number[], literals: Literal[], fixedTerms: readonly FixedTerm[]): string {
  const matches = fixedTerms.length === 0 ? [] : findTerms(text, fixedTerms.map((t) => t.term), { ignoreCase: true });
  let out = '';
  let last = 0;
  for (const match of matches) {
    out += encodeWords(text.slice(last, match.start), pairs, literals);
    out += literal(literals, fixedTerms[match.term]!.translation, pairs);
    last = match.end;
  }
  return out + encodeWords(text.slice(last), pairs, literals);
}

function encodeWords(text: string, pairs: readonly number[], literals: Literal[]): string {
  let out = '';
  for (const part of text.split(/(\s+)/)) {
    if (part === '') continue;
    if (/^\s+$/.test(part)) {
      out += /^ +$/.test(part) ? part : literal(literals, part, pairs);
      continue;
    }
    const word = escapeWord(part, pairs, literals);
    out += pairs.length === 0 ? word : `[[${pairs.map((n) => `g${n}`).join('; ')}]]${word}[[/]]`;
  }
  return out;
}

function escapeWord(word: string, pairs: readonly number[], literals: Literal[]): string {
  if (!OPERATOR.test(word)) return word.replace(RESERVED, '\\$&');
  let out = '';
  for (const char of word) out += OPERATOR.test(char) ? literal(literals, char, pairs) : char.replace(RESERVED, '\\$&');
  return out;
}

type OutPiece = { kind: 'word'; text: string; pairs: readonly number[] } | { kind: 'blank'; text: string };

/**
 * Apertium's answer for an encoded segment back to masked text: word-bound blanks become
 * the pairs around their words again (a pair is opened before the first word that
 * carries it and closed after the last of a run of them), superblanks their literals.
 * Whether the result keeps the source's marks is the caller's check (validate.ts).
 */
export function decodeSegment(output: string, encoded: EncodedSegment): string {
  const parts = readStream(withLostSuperblanks(output, encoded.literals.length), encoded.literals, encoded.pinned);
  const rank = (pair: number): number => encoded.pairOrder.get(pair) ?? Number.MAX_SAFE_INTEGER;
  let out = '';
  let open: number[] = [];
  let blanks = '';
  for (const piece of parts) {
    if (piece.kind === 'blank') {
      blanks += piece.text;
      continue;
    }
    const wanted = [...new Set(piece.pairs)].sort((a, b) => rank(a) - rank(b));
    let keep = 0;
    while (keep < open.length && keep < wanted.length && open[keep] === wanted[keep]) keep++;
    for (let i = open.length - 1; i >= keep; i--) out += `</g${open[i]}>`;
    out += blanks;
    blanks = '';
    for (let i = keep; i < wanted.length; i++) out += `<g${wanted[i]}>`;
    open = wanted;
    out += piece.text;
  }
  for (let i = open.length - 1; i >= 0; i--) out += `</g${open[i]}>`;
  out += blanks;
  if (!encoded.keepsDoubleSpaces) out = closeUpSpaces(out);
  out = spacesOutsidePairs(out, encoded.edgeSpaced);
  out = wordsApartFromPairs(out, encoded.spacedPairs);
  return encoded.lead + out.trim() + encoded.trail;
}

/**
 * `output` with every superblank Apertium did not give back put back after the one
 * before it in the source. Superblanks are meant to always come back, but a multiword
 * swallows one between its words (`There[#6] are` → `hay`, the `<br>` of a `<pre>`
 * lost): superblanks keep their order, so the one before it marks where its words went,
 * and a lost mark put there beats a document refused.
 */
function withLostSuperblanks(output: string, count: number): string {
  if (count === 0) return output;
  const ends = new Map<number, number>();
  for (const match of output.matchAll(/(\\*)\[#(\d+)\]/g)) {
    if (match[1]!.length % 2 === 1) continue; // an escaped `[`: text, not a blank
    const index = Number(match[2]);
    if (!ends.has(index)) ends.set(index, match.index + match[0].length);
  }
  if (ends.size === count) return output;
  const inserts: { at: number; text: string }[] = [];
  let anchor = 0;
  for (let index = 0; index < count; index++) {
    const end = ends.get(index);
    if (end !== undefined) anchor = end;
    else inserts.push({ at: anchor, text: `[#${index}]` });
  }
  let out = '';
  let last = 0;
  for (const { at, text } of inserts) {
    out += output.slice(last, at) + text;
    last = at;
  }
  return out + output.slice(last);
}

/**
 * A space between a word and a pair whose source has one there: when Apertium reorders
 * words it may give their blanks back elsewhere (`<g1>non-static</g1> data` →
 * `dato<g1>noestático</g1>`), and markdown reads no emphasis inside a word (`dato_x_`).
 */
function wordsApartFromPairs(text: string, spaced: ReadonlySet<number>): string {
  return text
    .replace(/([\p{L}\p{N}])<g(\d+)>/gu, (all, before: string, n: string) => (spaced.has(Number(n)) ? `${before} <g${n}>` : all))
    .replace(/<\/g(\d+)>([\p{L}\p{N}])/gu, (all, n: string, after: string) => (spaced.has(Number(n)) ? `</g${n}> ${after}` : all));
}

/**
 * Spaces just inside a pair's marks moved outside them, for the pairs whose source has
 * none there: a dropped first word leaves its blank inside the pair (`<g1>I bought</g1>`
 * → `<g1> Compré</g1>`), and markdown does not read `_ Compré_` as emphasis.
 */
function spacesOutsidePairs(text: string, edgeSpaced: ReadonlySet<number>): string {
  let out = text;
  for (let before = ''; before !== out; ) {
    before = out;
    out = out
      .replace(/(<g(\d+)>)( +)/g, (all, mark: string, n: string, spaces: string) => (edgeSpaced.has(Number(n)) ? all : spaces + mark))
      .replace(/( +)(<\/g(\d+)>)/g, (all, spaces: string, mark: string, n: string) => (edgeSpaced.has(Number(n)) ? all : mark + spaces));
  }
  return out;
}

/** Runs of spaces left where Apertium dropped a word (`I bought` → ` Compré`), outside literals' own text. */
function closeUpSpaces(text: string): string {
  return text.replace(/ {2,}/g, ' ');
}

/** Splits Apertium's output into words and literals (with their pairs) and blanks (spaces). */
function readStream(output: string, literals: readonly Literal[], pinned: boolean): OutPiece[] {
  const out: OutPiece[] = [];
  // Pinned pair marks are given back in the source's order, whatever order their blanks
  // came back in: the transfer rules move blanks too (`the same <g1>route's options</g1>
  // interface` → `la</g1> interfaz de opciones de la misma <g1>ruta`), and marks in
  // source order are always well nested.
  const pairMarks = pinned ? literals.filter((literal) => PAIR_MARK.test(literal.text)) : [];
  let nextPairMark = 0;
  let word = '';
  let wordPairs: readonly number[] = [];
  const flushWord = (): void => {
    if (word !== '') out.push({ kind: 'word', text: word, pairs: wordPairs });
    word = '';
  };
  const plain = (text: string): void => {
    for (const part of text.split(/( +)/)) {
      if (part === '') continue;
      if (part.startsWith(' ')) {
        flushWord();
        out.push({ kind: 'blank', text: part });
      } else {
        if (wordPairs.length > 0) flushWord();
        wordPairs = [];
        word += part;
      }
    }
  };
  let i = 0;
  while (i < output.length) {
    const char = output[i]!;
    if (char === '[' && output.startsWith('[[', i)) {
      const close = output.indexOf(']]', i + 2);
      const end = output.indexOf('[[/]]', close);
      if (close < 0 || end < 0) {
        plain(output.slice(i));
        break;
      }
      flushWord();
      const pairs = output
        .slice(i + 2, close)
        .split(';')
        .map((name) => /^\s*g(\d+)\s*$/.exec(name)?.[1])
        .filter((n): n is string => n !== undefined)
        .map(Number);
      const inner = unescape(output.slice(close + 2, end));
      // A word-bound run may hold several words (a multiword); the spaces between them stay
      // inside the pairs, but not spaces at its edges (left where Apertium dropped a word:
      // `<g1>It is worth</g1>` → `[[g1]] Vale[[/]]`), which markdown would not read as
      // emphasis any more (`_ Vale…_`).
      const text = inner.trim();
      if (inner.length > 0 && text === '') out.push({ kind: 'blank', text: inner });
      if (text !== '') {
        const lead = inner.slice(0, inner.length - inner.trimStart().length);
        const trail = inner.slice(inner.trimEnd().length);
        if (lead) out.push({ kind: 'blank', text: lead });
        out.push({ kind: 'word', text, pairs });
        if (trail) out.push({ kind: 'blank', text: trail });
      }
      i = end + 5;
      continue;
    }
    if (char === '[') {
      const end = closingBracket(output, i + 1);
      flushWord();
      const content = output.slice(i + 1, end);
      const index = /^#(\d+)$/.exec(content)?.[1];
      let found = index === undefined ? undefined : literals[Number(index)];
      if (found && pinned && PAIR_MARK.test(found.text)) found = pairMarks[nextPairMark++];
      // A literal goes back inside the pairs the source has around it, like a word.
      if (found) out.push({ kind: 'word', text: found.text, pairs: found.pairs });
      i = end + 1;
      continue;
    }
    let j = i;
    let run = '';
    while (j < output.length && output[j] !== '[') {
      if (output[j] === '\\' && j + 1 < output.length) {
        run += output[j + 1];
        j += 2;
      } else {
        run += output[j];
        j++;
      }
    }
    plain(run);
    i = j;
  }
  flushWord();
  return out;
}

function closingBracket(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === ']') return i;
  }
  return text.length;
}

function unescape(text: string): string {
  return text.replace(/\\(.)/gs, '$1');
}
