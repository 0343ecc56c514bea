/**
 * marked's block Tokenizer with a fast path for the commonest list: items of one line
 * each (`- text`, `1. text`), separated by nothing or by empty lines. marked's own list
 * tokenizer builds regexes and splits lines for every item, and was most of the block
 * lexer's time on list-heavy documents. For a list of that shape the fast path returns
 * the very token marked's would (same raws, texts, looseness and item tokens; checked
 * against it in test/formats/markdown-list.test.ts); for anything else (nested or
 * indented content, lazy lines, tasks, tabs, ordered lists …) it defers to marked.
 */
import { Tokenizer } from 'marked';
import type { Token, Tokens } from 'marked';
import * as charCodes from '../core/char-codes.js';
// Module-local constants, not imported bindings, for the inner loops (why: core/char-codes.ts).
const { ASTERISK, DASH, DELETE, DIGIT_0, DIGIT_1, DIGIT_9, DOT, GREATER_THAN, LINE_FEED, LOWER_A, LOWER_Z, PLUS, RIGHT_PAREN, SPACE, TAB, UPPER_A, UPPER_Z } = charCodes;

/** The end of the run of ASCII digits at `from`. */
function digitRun(text: string, from: number): number {
  let i = from;
  while (i < text.length && text.charCodeAt(i) >= DIGIT_0 && text.charCodeAt(i) <= DIGIT_9) i++;
  return i;
}

/** `1.`/`1)` followed by a space, tab or the end: an ordered list item. */
const ORDERED = /^\d{1,9}[.)](?:[ \t]|$)/;
/** marked's `listIsTask`. */
const TASK = /^\[[ xX]\][ \t]+\S/;
const WHITESPACE = /\s/;
/** `-`, `*`, `+`. */
const BULLETS = new Set([45, 42, 43]);
const BLANK_OR_END = /^(?:[ \t]|$)/;

export class ListTokenizer extends Tokenizer {
  override list(src: string): Tokens.List | undefined {
    return this.#simpleList(src) ?? super.list(src);
  }

  /** The token marked makes of a simple list at the start of `src`, or undefined. */
  #simpleList(src: string): Tokens.List | undefined {
    const first = src.charCodeAt(0);
    let ordered = false;
    let delimiter = 0;
    if (first >= DIGIT_0 && first <= DIGIT_9) {
      const digits = digitRun(src, 0);
      delimiter = src.charCodeAt(digits);
      if (digits > 9 || (delimiter !== DOT && delimiter !== RIGHT_PAREN)) return undefined;
      // After a list item's text, only a list starting at 1 interrupts it (marked: listInterruptsParagraph).
      if (this.lexer.state.lastToken?.type === 'text' && !(digits === 1 && first === DIGIT_1)) return undefined;
      ordered = true;
    } else if (first !== DASH && first !== ASTERISK && first !== PLUS) return undefined;
    const lexer = this.lexer;
    const items: Tokens.ListItem[] = [];
    let loose = false;
    let endsWithBlankLine = false;
    let pos = 0;
    let end = 0;
    for (;;) {
      // An item line: the marker, one space, content that starts with a non-space.
      const contentStart = this.#marker(src, pos, ordered, ordered ? delimiter : first);
      if (contentStart < 0) return undefined;
      let lineEnd = src.indexOf('\n', contentStart);
      if (lineEnd === -1) lineEnd = src.length;
      const content = src.slice(contentStart, lineEnd);
      const tokens = this.#content(content);
      if (!tokens) return undefined;
      // Empty lines after it (a line of spaces or tabs is not simple).
      let next = lineEnd < src.length ? lineEnd + 1 : lineEnd;
      let blank = 0;
      while (src.charCodeAt(next) === LINE_FEED) {
        blank++;
        next++;
      }
      const c = src.charCodeAt(next);
      if (c === SPACE || c === TAB) return undefined;
      let last = next >= src.length;
      if (!last && this.#marker(src, next, ordered, ordered ? delimiter : first) === -2) {
        // Anything else at column 0 ends the list after an empty line; right after an item
        // it would be a lazy line or an interruption.
        if (blank === 0) return undefined;
        last = true;
      }
      // (A line with this list's marker but not simple returns -1 at the top of the loop.)
      const raw = src.slice(pos, next);
      if (!loose) {
        if (endsWithBlankLine) loose = true;
        else if (blank > 0) endsWithBlankLine = true;
      }
      if (last) {
        items.push({ type: 'list_item', raw: raw.trimEnd(), task: false, loose: false, text: content.trimEnd(), tokens: this.#lastTokens(content, tokens) });
        end = next;
        break;
      }
      // As marked's blockTokens(text) makes them: an empty line joins the text token, more are a space token.
      if (blank === 1) tokens[0]!.raw += '\n';
      else if (blank > 1) {
        tokens.push({ type: 'space', raw: '\n'.repeat(blank) });
        loose = true;
      }
      items.push({ type: 'list_item', raw, task: false, loose: false, text: blank > 0 ? content + '\n'.repeat(blank) : content, tokens });
      pos = next;
    }
    if (loose) {
      for (const item of items) {
        item.loose = true;
        for (const token of item.tokens) if (token.type === 'text') token.type = 'paragraph';
      }
    }
    // marked's list() leaves the lexer at top level after lexing its items.
    lexer.state.top = true;
    const start = ordered ? Number(src.slice(0, digitRun(src, 0))) : '';
    return { type: 'list', raw: src.slice(0, end).trimEnd(), ordered, start, loose, items };
  }

  /**
   * Where the content of the item line at `pos` starts: after this list's marker (the
   * bullet, or digits and this delimiter) and one space. -1 for a line with this list's
   * marker that is not simple, -2 for a line without it.
   */
  #marker(src: string, pos: number, ordered: boolean, marker: number): number {
    if (!ordered) {
      if (src.charCodeAt(pos) !== marker) return -2;
      return src.charCodeAt(pos + 1) === SPACE ? pos + 2 : -1;
    }
    const digits = digitRun(src, pos) - pos;
    if (digits === 0 || digits > 9 || src.charCodeAt(pos + digits) !== marker) return -2;
    return src.charCodeAt(pos + digits + 1) === SPACE ? pos + digits + 2 : -1;
  }

  /** The block tokens of one item's content line (one text token), or undefined if it is anything else. */
  #content(content: string): Token[] | undefined {
    const c = content.charCodeAt(0);
    if ((c >= UPPER_A && c <= UPPER_Z) || (c >= LOWER_A && c <= LOWER_Z) || (c > DELETE && !WHITESPACE.test(content[0]!))) {
      // No block construct starts with a letter.
      return [{ type: 'text', raw: content, text: content, tokens: [] } as Tokens.Text];
    }
    if (Number.isNaN(c) || c === SPACE || c === TAB || ORDERED.test(content) || TASK.test(content)) return undefined;
    // A nested container is never one text token. Lexing it here and then again in
    // marked's list() doubled the work per level: `- - - … x` took 2^depth.
    if (c === GREATER_THAN || (BULLETS.has(c) && BLANK_OR_END.test(content.slice(1, 2)))) return undefined;
    // Anything else is classified by marked itself (as its list() does, not at top level).
    const lexer = this.lexer;
    lexer.state.top = false;
    const tokens = lexer.blockTokens(content, []);
    if (tokens.length !== 1 || tokens[0]!.type !== 'text' || tokens[0]!.raw !== content) return undefined;
    return tokens;
  }

  /** The last item's tokens: its text is trimmed at the end (as marked trims the last item). */
  #lastTokens(content: string, tokens: Token[]): Token[] {
    const trimmed = content.trimEnd();
    if (trimmed === content) return tokens;
    const token = tokens[0] as Tokens.Text;
    token.raw = trimmed;
    token.text = trimmed;
    return tokens;
  }
}
