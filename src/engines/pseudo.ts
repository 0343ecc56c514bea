/**
 * The built-in pseudo-localization engine (docs/contract.md §2). Not a translation: every
 * ASCII letter gets a diacritic (precomposed where Unicode has one, otherwise the
 * letter plus a combining mark) so NFD minus combining marks gives the source back.
 * Right-to-left targets are wrapped in U+202B … U+202C. Tokens, digits, whitespace,
 * punctuation and non-ASCII letters are left alone. Usage is counted with o200k.
 *
 * Glossary entries are applied deterministically, so glossary behaviour is testable end
 * to end: an entry's term (matched as segments/terms.ts matches it) becomes the entry's
 * translation for the target, unmarked; the rest of the segment is pseudo-localized.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { yieldFromLongWork } from '../event-loop/long-work.js';
import { Turns } from '../event-loop/turns.js';
import { SEGMENT_MARK_PATTERN } from '../segments/segment.js';
import { findTerms } from '../segments/terms.js';
import type { Tokenizer } from '../tokens.js';
import type {
  CallBudget,
  ChunkTranslation,
  GlossaryTerm,
  TranslateChunkInput,
  TranslationEngine,
} from './engine.js';

const ACUTE = '\u0301';
const CIRCUMFLEX = '\u0302';
const TILDE = '\u0303';
const DIAERESIS = '\u0308';
const DOT_ABOVE = '\u0307';
const CEDILLA = '\u0327';
const CARON = '\u030C';

/** The mark each letter carries; chosen so `Hello` reads `Ĥéļļö`. */
const MARK_BY_LETTER: Record<string, string> = {
  a: ACUTE, b: DOT_ABOVE, c: CEDILLA, d: DOT_ABOVE, e: ACUTE, f: DOT_ABOVE, g: CIRCUMFLEX,
  h: CIRCUMFLEX, i: ACUTE, j: CIRCUMFLEX, k: CEDILLA, l: CEDILLA, m: DOT_ABOVE, n: TILDE,
  o: DIAERESIS, p: DOT_ABOVE, q: DOT_ABOVE, r: ACUTE, s: CARON, t: CEDILLA, u: DIAERESIS,
  v: TILDE, w: CIRCUMFLEX, x: DOT_ABOVE, y: ACUTE, z: CARON,
};

/** ASCII letter → its pseudo form: one precomposed code point, or letter + mark. */
const PSEUDO_LETTER = new Map<string, string>();
for (const [lower, mark] of Object.entries(MARK_BY_LETTER)) {
  for (const letter of [lower, lower.toUpperCase()]) {
    // NFC composes letter + mark into one code point where Unicode has it (q has none).
    PSEUDO_LETTER.set(letter, (letter + mark).normalize('NFC'));
  }
}

const RTL_EMBEDDING = '\u202B';
const POP_DIRECTIONAL = '\u202C';

export function pseudoLocalizeText(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(SEGMENT_MARK_PATTERN)) {
    out += transformLetters(text.slice(last, match.index));
    out += match[0];
    last = match.index + match[0].length;
  }
  return out + transformLetters(text.slice(last));
}

function transformLetters(run: string): string {
  return run.replace(/[A-Za-z]/g, (letter) => PSEUDO_LETTER.get(letter)!);
}

export function pseudoTranslate(text: string, rtl: boolean): string {
  const localized = pseudoLocalizeText(text);
  return rtl ? RTL_EMBEDDING + localized + POP_DIRECTIONAL : localized;
}

/** pseudoTranslate, with each glossary term that has a translation for `code` replaced by it, unmarked. */
export function pseudoTranslateWithGlossary(text: string, rtl: boolean, glossary: readonly GlossaryTerm[], code: string): string {
  const terms = glossary.filter((entry) => entry.translations[code] !== undefined);
  const matches = findTerms(
    text,
    terms.map((entry) => entry.term),
    { ignoreCase: true },
  );
  if (matches.length === 0) return pseudoTranslate(text, rtl);
  let localized = '';
  let last = 0;
  for (const match of matches) {
    localized += pseudoLocalizeText(text.slice(last, match.start)) + terms[match.term]!.translations[code]!;
    last = match.end;
  }
  localized += pseudoLocalizeText(text.slice(last));
  return rtl ? RTL_EMBEDDING + localized + POP_DIRECTIONAL : localized;
}

/** A segment longer than this is transformed in slices of it, with a yield between. */
const SLICE_CHARS = 64 * 1024;

/** A mark starting exactly at `lastIndex`. */
const MARK_AT = new RegExp(SEGMENT_MARK_PATTERN.source, 'y');
/** A character a mark may hold after its `<`. */
const MARK_BODY = /[/gx0-9]/;

/**
 * Where the slice of `text` from `start` ends: `sliceChars` on, moved off a mark (`<g12>`,
 * `</g3>`, `<x7/>`) it would cut. A mark holds one `<`, so only one starting at the last
 * `<` before the cut can straddle it; any other `<` is text (a comment, a comparison) and
 * does not move the cut (it once did: a 1.8 MB plain text opening with `<!--` was
 * transformed in one slice).
 */
export function pseudoSliceEnd(text: string, start: number, sliceChars = SLICE_CHARS): number {
  const end = start + sliceChars;
  if (end >= text.length) return text.length;
  // Back over what a mark holds after its `<` (`/`, `g`, `x`, digits), within the slice.
  let open = end - 1;
  while (open > start && MARK_BODY.test(text[open]!)) open--;
  if (text[open] !== '<') return end;
  MARK_AT.lastIndex = open;
  const mark = MARK_AT.exec(text);
  if (!mark || open + mark[0].length <= end) return end;
  return open > start ? open : open + mark[0].length;
}

/** pseudoTranslate, in slices cut outside marks, returning to the loop between slices. */
async function pseudoTranslateInTurns(text: string, rtl: boolean): Promise<string> {
  if (text.length <= SLICE_CHARS) return pseudoTranslate(text, rtl);
  const parts: string[] = [];
  for (let start = 0; start < text.length; ) {
    const end = pseudoSliceEnd(text, start);
    parts.push(pseudoLocalizeText(text.slice(start, end)));
    start = end;
    await yieldFromLongWork();
  }
  const localized = parts.join('');
  return rtl ? RTL_EMBEDDING + localized + POP_DIRECTIONAL : localized;
}

export class PseudoEngine implements TranslationEngine {
  readonly id = 'pseudo';

  constructor(
    readonly budget: CallBudget,
    /** Counts the usage it reports, as a model's provider would. */
    private readonly tokenizer: Tokenizer,
  ) {}

  /**
   * Synchronous CPU work (transform + o200k count), so it yields to the event loop before
   * the call, after each target and whenever a turn has taken a few milliseconds (one
   * segment may be a 2 MiB blob): a 2 MiB document is hundreds of calls, and without the
   * yields they would run back to back and hold every other request for seconds.
   */
  async translate(input: TranslateChunkInput): Promise<ChunkTranslation> {
    await yieldToLoop();
    input.signal?.throwIfAborted();
    const turns = new Turns();
    let inputTokens = 0;
    for (const segment of input.segments) {
      inputTokens += await this.tokenizer.countTokensYielding(segment.text);
      await turns.yieldIfLong();
    }

    let outputTokens = 0;
    const translations = new Map<string, Map<string, string>>();
    for (const target of input.targets) {
      const bySegment = new Map<string, string>();
      for (const segment of input.segments) {
        const translated = input.glossary?.length
          ? pseudoTranslateWithGlossary(segment.text, target.rtl, input.glossary, target.code)
          : await pseudoTranslateInTurns(segment.text, target.rtl);
        outputTokens += await this.tokenizer.countTokensYielding(translated);
        bySegment.set(segment.id, translated);
        await turns.yieldIfLong();
      }
      translations.set(target.code, bySegment);
      await yieldToLoop();
      input.signal?.throwIfAborted();
    }
    return { translations, usage: { inputTokens, outputTokens } };
  }
}
